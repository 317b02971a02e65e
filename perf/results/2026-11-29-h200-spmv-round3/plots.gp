# strata bench plots (gnuplot plots.gp in this folder)
if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) { set terminal pngcairo size 1600,800 noenhanced } else { set terminal png size 1600,800 noenhanced }
set datafile missing '-'
set grid ytics
reset
set datafile missing '-'
set grid ytics
set style data histograms
set style histogram clustered gap 1
set style fill solid border -1
set key outside right autotitle columnheader
set yrange [0:*]
set output 'stream_bw.png'
set title 'Stream bandwidth per backend (GB/s; reference: device memcpy on GPUs, plain OpenMP triad on host backends)'
set ylabel 'GB/s'
plot for [i=2:5] 'stream_bw.dat' using i:xtic(1)
reset
set datafile missing '-'
set style data histograms
set style histogram clustered gap 1
set style fill solid border -1
set key outside right autotitle columnheader
set xtics rotate by -35
set grid ytics
set yrange [0:*]
set bmargin 12
set output 'spmv_pct_stream.png'
set title 'SpMV: strata (row-class plan; automatic format) and the vendor peer, % of the stream reference of the same backend (same run)'
set ylabel '% of stream'
plot for [i=2:5] 'spmv_pct_stream.dat' using i:xtic(1)
reset
set datafile missing '-'
set style data histograms
set style histogram clustered gap 1
set style fill solid border -1
set key outside right autotitle columnheader
set xtics rotate by -35
set grid ytics
set yrange [0:*]
set bmargin 12
set output 'spmv_all_cuda.png'
set title 'SpMV on cuda: every plan algorithm and storage format, % of its stream reference'
set ylabel '% of stream'
plot for [i=2:14] 'spmv_all_cuda.dat' using i:xtic(1)
reset
set datafile missing '-'
set style data histograms
set style histogram clustered gap 1
set style fill solid border -1
set key outside right autotitle columnheader
set xtics rotate by -35
set grid ytics
set bmargin 12
set output 'backend_ratio.png'
set title 'SpMV speed-up, strata auto: backend over serial, and over the vendor CSR ALG1 (last)'
set ylabel 'ratio of times (>1: faster)'
set logscale y
set yrange [*:*]
plot for [i=2:3] 'backend_ratio.dat' using i:xtic(1)
