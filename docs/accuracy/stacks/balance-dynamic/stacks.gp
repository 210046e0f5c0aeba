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
set title "balance on vm: speedup stacks, measured (m) and predicted (p); t1 1.34 s" noenhanced
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
"0 m" 1 6.30488e-05 0.000281427 0.000258751 -0.000603227 0 0 0
"0 p" 1 0 0 0 0 0 0 0
"" ? ? ? ? ? ? ? ?
"0,1 m" 1.9387 0.00270415 0.00831372 0.0121339 0.0347332 0.00322068 0.000189856 0
"0,1 p" 2 0 0 0 0 0 0 0
"" ? ? ? ? ? ? ? ?
"0,0 m" 0.990663 0.00114599 0.997861 0 0.00874186 0.00158547 2.68486e-06 0
"0,0 p" 0.99932 0 0.99932 0 0 0 0 0.00135985
"" ? ? ? ? ? ? ? ?
"0,0,1,1 m" 1.96157 0.00877031 1.99742 0 0.0201948 0.0114907 0.000562334 0
"0,0,1,1 p" 1.99864 0 1.99864 0 0 0 0 0.00271969
EOD
plot $data using 2:xtic(1) title "speedup (achieved or predicted)" lc rgb "#222222", \
     $data using 3 title "barrier and condition waits" lc rgb "#ff9896", \
     $data using 4 title "time sharing" lc rgb "#9467bd", \
     $data using 5 title "other blocked" lc rgb "#c7c7c7", \
     $data using 6 title "contention and parallel overhead (not split)" lc rgb "#ff7f0e", \
     $data using 7 title "serial execution" lc rgb "#9e9e9e", \
     $data using 8 title "load imbalance" lc rgb "#1f77b4", \
     $data using 9 title "burstiness (core sharing)" lc rgb "#e377c2"
