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
set title "cachestream on vm: speedup stacks, measured (m) and predicted (p); t1 1.31 s" noenhanced
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
"0 m" 1 3.71823e-06 0.000299129 0.000396261 -0.000699108 0 0
"0 p" 1 0 0 0 0 0 0
"" ? ? ? ? ? ? ?
"0,1 m" 1.23585 0.216822 0.00867294 0.0105796 0.524926 0.0029023 0.000251386
"0,1 p" 1.79909 0 0 0 0 0.200912 0
"" ? ? ? ? ? ? ?
"0,0 m" 0.657691 0.0040819 0.996601 0.00258291 0.337764 0.00127868 2.824e-07
"0,0 p" 1 0 0.799088 0 0 0.200912 0
"" ? ? ? ? ? ? ?
"0,0,1,1 m" 1.57547 0.332823 1.83618 0.000350022 0.246182 0.00784838 0.00115053
"0,0,1,1 p" 1.79909 0 1.19711 0 0 1.0038 0
EOD
plot $data using 2:xtic(1) title "speedup (achieved or predicted)" lc rgb "#222222", \
     $data using 3 title "barrier and condition waits" lc rgb "#ff9896", \
     $data using 4 title "time sharing" lc rgb "#9467bd", \
     $data using 5 title "other blocked" lc rgb "#c7c7c7", \
     $data using 6 title "contention and parallel overhead (not split)" lc rgb "#ff7f0e", \
     $data using 7 title "serial execution" lc rgb "#9e9e9e", \
     $data using 8 title "load imbalance" lc rgb "#1f77b4"
