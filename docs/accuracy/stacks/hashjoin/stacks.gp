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
set title "hashjoin on vm: speedup stacks, measured (m) and predicted (p); t1 1.26 s" noenhanced
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
# bar base time_sharing other contention serial imbalance
"0 m" 1 0.000483836 0.00273528 -0.00321911 0 0
"0 p" 1 0 0 0 0 0
"" ? ? ? ? ? ?
"0,1 m" 1.73053 0.00554742 0.0598514 0.19731 0.00675743 0
"0,1 p" 2 0 0 0 0 0
"" ? ? ? ? ? ?
"0,0 m" 1.01664 0.987615 0.0118278 -0.0175045 0.00141806 0
"0,0 p" 1 1 0 0 0 0
"" ? ? ? ? ? ?
"0,0,1,1 m" 1.67145 1.95647 0.0735155 0.290494 0.00789757 0.000180621
"0,0,1,1 p" 2 2 0 0 0 0
EOD
plot $data using 2:xtic(1) title "speedup (achieved or predicted)" lc rgb "#222222", \
     $data using 3 title "time sharing" lc rgb "#9467bd", \
     $data using 4 title "other blocked" lc rgb "#c7c7c7", \
     $data using 5 title "contention and parallel overhead (not split)" lc rgb "#ff7f0e", \
     $data using 6 title "serial execution" lc rgb "#9e9e9e", \
     $data using 7 title "load imbalance" lc rgb "#1f77b4"
