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
set title "balance on vm: speedup stacks, measured (m) and predicted (p); t1 1.35 s" noenhanced
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
"0 m" 1 8.1016e-05 0.000193074 0.000281503 -0.000555593 0 0
"0 p" 1 0 0 0 0 0 0
"" ? ? ? ? ? ? ?
"0,1 m" 1.88264 0.0607998 0.00785488 0 0.0456896 0.00273585 0.000274968
"0,1 p" 1.91962 0 0 0 0 0.0803795 0
"" ? ? ? ? ? ? ?
"0,0 m" 1.00565 0.016235 0.982909 0 -0.006206 0.00140848 9.51395e-08
"0,0 p" 1 0 0.919621 0 0 0.0803795 0
"" ? ? ? ? ? ? ?
"0,0,1,1 m" 1.88747 0.144531 1.89185 0 0.0649283 0.00972703 0.00149221
"0,0,1,1 p" 1.91962 0 1.63398 0 0 0.446396 0
EOD
plot $data using 2:xtic(1) title "speedup (achieved or predicted)" lc rgb "#222222", \
     $data using 3 title "barrier and condition waits" lc rgb "#ff9896", \
     $data using 4 title "time sharing" lc rgb "#9467bd", \
     $data using 5 title "other blocked" lc rgb "#c7c7c7", \
     $data using 6 title "contention and parallel overhead (not split)" lc rgb "#ff7f0e", \
     $data using 7 title "serial execution" lc rgb "#9e9e9e", \
     $data using 8 title "load imbalance" lc rgb "#1f77b4"
