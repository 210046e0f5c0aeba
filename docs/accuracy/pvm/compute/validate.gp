# pandia validate: measured and predicted time of each placement,
# normalised to the best measured (the Pandia paper's Figure 1).
# Draw it again: gnuplot validate.gp
if (strstrt(GPVAL_TERMINALS, "pngcairo") > 0) {
  set terminal pngcairo size 1000,560 font ",10"
} else {
  set terminal png size 1000,560
}
set output "validate.png"
set title "compute on vm: median error 2.0%, offset error 1.3%, best-placement gap 0.2% (5 placements, -r 3)" noenhanced
set xlabel "placement (by threads, then threads per core); ticks: thread count"
set ylabel "time / best measured time"
set key below horizontal
set grid ytics
set yrange [0:*]
set offsets 0.5, 0.5, 0, 0
set xtics ("1" 1, "2" 2, "3" 4, "4" 5)
$data << EOD
# x measured predicted threads cpus
1 2.00151 1.99944 1 0
2 1.00185 1.03822 2 0,1
3 2.02503 2.01897 2 0,0
4 1.32405 1.35108 3 0,0,1
5 1 1.04766 4 0,0,1,1
EOD
plot $data using 1:2 with linespoints pt 7 ps 0.8 lw 1.5 lc rgb "#1f4e9c" title "measured", \
     $data using 1:3 with linespoints pt 6 ps 0.8 lw 1.5 dt 2 lc rgb "#d9480f" title "predicted", \
     1.10282 with lines lw 1 dt 3 lc rgb "#555555" title "2 threads unpinned, the OS scheduler (measured)"
