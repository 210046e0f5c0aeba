# pandia: speedup stacks, measured (m) and predicted (p) side by side;
# each bar is N high (N the thread count), the achieved or predicted
# speedup at the bottom, above it the speedup lost to each cause
# (docs/stacks.md).  Draw it again: gnuplot stacks.gp
if (strstrt(GPVAL_TERMINALS, "pngcairo") > 0) {
  set terminal pngcairo size 1020,600 font ",10"
} else {
  set terminal png size 1020,600
}
set output "stacks.png"
set title "stream on vm: speedup stacks, measured (m) and predicted (p); t1 1.72 s" noenhanced
set xlabel "threads: measured (m) and predicted (p)"
set ylabel "speedup (each bar is N high)"
set style data histograms
set style histogram rowstacked
set style fill solid 0.9 border rgb "#333333"
set boxwidth 0.8 relative
set key outside right top vertical noenhanced reverse invert Left
set grid ytics
set yrange [*:4.2]
set datafile missing "?"
$data << EOD
# bar base barrier time_sharing other contention serial imbalance burstiness
"0 m" 1 4.72889e-06 0.000236448 0.000485045 -0.000726222 0 0 0
"0 p" 1 0 0 0 0 0 0 0
"" ? ? ? ? ? ? ? ?
"0,1 m" 1.87907 0.126248 0.00947793 0.00197086 -0.0214314 0.00427148 0.0003902 0
"0,1 p" 1.31268 0 0 0 0 0.687323 0 0
"" ? ? ? ? ? ? ? ?
"0,0 m" 1.04589 0.00319395 0.995986 0 -0.0488489 0.00165675 0.00211705 0
"0,0 p" 0.987842 0 0.308876 0 0 0.687323 0 0.0159594
"" ? ? ? ? ? ? ? ?
"0,0,1,1 m" 1.85936 0.18502 1.89882 0 0.0216244 0.0255812 0.00959044 0
"0,0,1,1 p" 1.30317 0 0.24149 0 0 2.44407 0 0.0112669
EOD
plot $data using 2:xtic(1) title "speedup (achieved or predicted)" lc rgb "#222222", \
     $data using 3 title "barrier and condition waits" lc rgb "#ff9896", \
     $data using 4 title "time sharing" lc rgb "#9467bd", \
     $data using 5 title "other blocked" lc rgb "#c7c7c7", \
     $data using 6 title "contention and parallel overhead (not split)" lc rgb "#ff7f0e", \
     $data using 7 title "serial execution" lc rgb "#9e9e9e", \
     $data using 8 title "load imbalance" lc rgb "#1f77b4", \
     $data using 9 title "burstiness (core sharing)" lc rgb "#e377c2"
