# pandia validate: measured and predicted time of each placement,
# normalised to the best measured (the Pandia paper's Figure 1).
# Draw it again: gnuplot validate.gp
if (strstrt(GPVAL_TERMINALS, "pngcairo") > 0) {
  set terminal pngcairo size 1000,560 font ",10"
} else {
  set terminal png size 1000,560
}
set output "validate.png"
set title "hashjoin on vm: median error 2.2%, offset error 4.8%, best-placement gap 19.0% (5 placements, -r 3)" noenhanced
set xlabel "placement (by threads, then threads per core); ticks: thread count"
set ylabel "time / best measured time"
set key below horizontal
set grid ytics
set yrange [0:*]
set offsets 0.5, 0.5, 0, 0
set xtics ("1" 1, "2" 2, "3" 4, "4" 5)
$data << EOD
# x measured predicted threads cpus
1 1.31963 1.29204 1 0
2 1.19021 1.16358 2 0,1
3 1.33096 1.36596 2 0,0
4 1 1.21858 3 0,0,1
5 1.21945 1.19881 4 0,0,1,1
EOD
plot $data using 1:2 with linespoints pt 7 ps 0.8 lw 1.5 lc rgb "#1f4e9c" title "measured", \
     $data using 1:3 with linespoints pt 6 ps 0.8 lw 1.5 dt 2 lc rgb "#d9480f" title "predicted", \
     1.20266 with lines lw 1 dt 3 lc rgb "#555555" title "2 threads unpinned, the OS scheduler (measured)"
