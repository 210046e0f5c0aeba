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
set title "chase on vm: speedup stacks, measured (m) and predicted (p); t1 2.17 s" noenhanced
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
"0 m" 1 4.48859e-06 0.000180971 0.000433722 -0.000619182 0 0 0
"0 p" 1 0 0 0 0 0 0 0
"" ? ? ? ? ? ? ? ?
"0,1 m" 1.88887 0.00953535 0.0118379 0.000220513 0.0831728 0.00612318 0.000239506 0
"0,1 p" 1.83968 0 0 0 0 0.16032 0 0
"" ? ? ? ? ? ? ? ?
"0,0 m" 0.968625 0.00114898 0.998034 8.56515e-05 0.030808 0.00129758 3.71238e-07 0
"0,0 p" 0.863942 0 0.725435 0 0 0.16032 0 0.250303
"" ? ? ? ? ? ? ? ?
"0,0,1,1 m" 1.9242 0.0477982 1.97545 0 0.034349 0.00760477 0.0105976 0
"0,0,1,1 p" 1.61983 0 1.17221 0 0 0.829011 0 0.37895
EOD
plot $data using 2:xtic(1) title "speedup (achieved or predicted)" lc rgb "#222222", \
     $data using 3 title "barrier and condition waits" lc rgb "#ff9896", \
     $data using 4 title "time sharing" lc rgb "#9467bd", \
     $data using 5 title "other blocked" lc rgb "#c7c7c7", \
     $data using 6 title "contention and parallel overhead (not split)" lc rgb "#ff7f0e", \
     $data using 7 title "serial execution" lc rgb "#9e9e9e", \
     $data using 8 title "load imbalance" lc rgb "#1f77b4", \
     $data using 9 title "burstiness (core sharing)" lc rgb "#e377c2"
