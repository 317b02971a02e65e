# strata bench plots (gnuplot plots.gp in this folder)
if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) { set terminal pngcairo size 1600,800 noenhanced } else { set terminal png size 1600,800 noenhanced }
set datafile missing '-'
set grid ytics
reset
set datafile missing '-'
set grid xtics ytics
set key outside right autotitle columnheader
set output 'unpack_rowlen.png'
set title 'unpack_combine(ADD): time per entry against the incoming row length (packets of L entries, ~4 per global row)'
set xlabel 'entries per incoming row (L)'
set ylabel 'ns per entry'
set logscale xy 2
set format y '%g'
plot for [i=2:2] 'unpack_rowlen.dat' using 1:i with linespoints lw 2 pt 7
