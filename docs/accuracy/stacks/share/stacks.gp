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
set title "share on vm: speedup stacks, measured (m) and predicted (p); t1 1.45 s" noenhanced
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
"0 m" 1 3.49497e-06 0.00022479 0.000312095 -0.00054038 0 0
"0 p" 1 0 0 0 0 0 0
"" ? ? ? ? ? ? ?
"0,1 m" 0.729826 0.126397 0.005007 0.00237292 1.13514 0.00114595 0.000111219
"0,1 p" 1 0 0 0 0 1 0
"" ? ? ? ? ? ? ?
"0,0 m" 1.02307 0.00241623 0.99627 0.000137577 -0.0236285 0.00173885 4.37424e-07
"0,0 p" 1 0 0 0 0 1 0
"" ? ? ? ? ? ? ?
"0,0,1,1 m" 0.793978 0.241517 1.89081 0 1.07019 0.0031455 0.000353872
"0,0,1,1 p" 1 0 0 0 0 3 0
EOD
plot $data using 2:xtic(1) title "speedup (achieved or predicted)" lc rgb "#222222", \
     $data using 3 title "barrier and condition waits" lc rgb "#ff9896", \
     $data using 4 title "time sharing" lc rgb "#9467bd", \
     $data using 5 title "other blocked" lc rgb "#c7c7c7", \
     $data using 6 title "contention and parallel overhead (not split)" lc rgb "#ff7f0e", \
     $data using 7 title "serial execution" lc rgb "#9e9e9e", \
     $data using 8 title "load imbalance" lc rgb "#1f77b4"
