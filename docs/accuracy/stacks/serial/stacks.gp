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
set title "serial on vm: speedup stacks, measured (m) and predicted (p); t1 1.36 s" noenhanced
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
# bar base barrier time_sharing other contention serial lock imbalance burstiness
"0 m" 1 0.000204983 0.000266668 0.00110997 -0.00158163 0 0 0 0
"0 p" 1 0 0 0 0 0 0 0 0
"" ? ? ? ? ? ? ? ? ?
"0,1 m" 1.50597 0.215806 0.00619154 0 0.0802473 0.00254755 0.189026 0.00021262 0
"0,1 p" 1.51275 0 0 0 0 0.487253 0 0 0
"" ? ? ? ? ? ? ? ? ?
"0,0 m" 1.00681 0.124753 0.849074 0 -0.00746903 0.00148093 0.0253558 1.5237e-07 0
"0,0 p" 0.994778 0 0.510069 0 0 0.487253 0 0 0.00789958
"" ? ? ? ? ? ? ? ? ?
"0,0,1,1 m" 1.55842 0.708135 1.26369 0 0.021347 0.00837947 0.439332 0.000688818 0
"0,0,1,1 p" 1.50743 0 0.519701 0 0 1.96572 0 0 0.00715496
EOD
plot $data using 2:xtic(1) title "speedup (achieved or predicted)" lc rgb "#222222", \
     $data using 3 title "barrier and condition waits" lc rgb "#ff9896", \
     $data using 4 title "time sharing" lc rgb "#9467bd", \
     $data using 5 title "other blocked" lc rgb "#c7c7c7", \
     $data using 6 title "contention and parallel overhead (not split)" lc rgb "#ff7f0e", \
     $data using 7 title "serial execution" lc rgb "#9e9e9e", \
     $data using 8 title "lock waits" lc rgb "#d62728", \
     $data using 9 title "load imbalance" lc rgb "#1f77b4", \
     $data using 10 title "burstiness (core sharing)" lc rgb "#e377c2"
