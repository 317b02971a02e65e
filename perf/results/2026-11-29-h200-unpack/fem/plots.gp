# strata bench plots (gnuplot plots.gp in this folder)
if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) { set terminal pngcairo size 1600,800 noenhanced } else { set terminal png size 1600,800 noenhanced }
set datafile missing '-'
set grid ytics
