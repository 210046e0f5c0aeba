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
set title "compute on vm: speedup stacks, measured (m) and predicted (p); t1 1.39 s" noenhanced
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
# bar base barrier time_sharing other contention serial imbalance
"0 m" 1 3.9925e-06 0.000263523 0.000800728 -0.00106824 0 0
"0 p" 1 0 0 0 0 0 0
"" ? ? ? ? ? ? ?
"0,1 m" 1.99633 0.0226965 0.00884628 0.000573647 -0.031321 0.00250279 0.000374089
"0,1 p" 1.98991 0 0 0 0 0.0100853 0
"" ? ? ? ? ? ? ?
"0,0 m" 0.995141 0.000701569 0.9969 3.66453e-05 0.00370652 0.00351375 4.16577e-08
"0,0 p" 1 0 0.989915 0 0 0.0100853 0
"" ? ? ? ? ? ? ?
"0,0,1,1 m" 1.88254 0.077191 1.9682 2.54769e-05 0.06205 0.00937675 0.000621062
"0,0,1,1 p" 1.98991 0 1.95018 0 0 0.0599079 0
EOD
plot $data using 2:xtic(1) title "speedup (achieved or predicted)" lc rgb "#222222", \
     $data using 3 title "barrier and condition waits" lc rgb "#ff9896", \
     $data using 4 title "time sharing" lc rgb "#9467bd", \
     $data using 5 title "other blocked" lc rgb "#c7c7c7", \
     $data using 6 title "contention and parallel overhead (not split)" lc rgb "#ff7f0e", \
     $data using 7 title "serial execution" lc rgb "#9e9e9e", \
     $data using 8 title "load imbalance" lc rgb "#1f77b4"
