# made by bench_perf: pairs per second against batch size, and the memory bound
set terminal pngcairo size 1200,800 noenhanced
set output 'perf.png'
set logscale xy
set key left top
set grid
set xlabel 'pairs per batch'
set ylabel 'pairs per second'
set multiplot layout 2,3
set title 'box'
plot 'perf-plot.dat' index 0 using 1:2 with linespoints title 'scalar', 'perf-plot.dat' index 0 using 1:3 with linespoints title 'scalar-all-cores', 'perf-plot.dat' index 0 using 1:4 with linespoints title 'opencl-kernel', 'perf-plot.dat' index 0 using 1:5 with linespoints title 'opencl-e2e', 'perf-plot.dat' index 0 using 1:6 with linespoints title 'auto', 'perf-plot.dat' index 0 using 1:7 with lines dashtype 2 title 'memory bound'
set title 'circle'
plot 'perf-plot.dat' index 1 using 1:2 with linespoints title 'scalar', 'perf-plot.dat' index 1 using 1:3 with linespoints title 'scalar-all-cores', 'perf-plot.dat' index 1 using 1:4 with linespoints title 'opencl-kernel', 'perf-plot.dat' index 1 using 1:5 with linespoints title 'opencl-e2e', 'perf-plot.dat' index 1 using 1:6 with linespoints title 'auto', 'perf-plot.dat' index 1 using 1:7 with lines dashtype 2 title 'memory bound'
set title 'circle-box'
plot 'perf-plot.dat' index 2 using 1:2 with linespoints title 'scalar', 'perf-plot.dat' index 2 using 1:3 with linespoints title 'scalar-all-cores', 'perf-plot.dat' index 2 using 1:4 with linespoints title 'opencl-kernel', 'perf-plot.dat' index 2 using 1:5 with linespoints title 'opencl-e2e', 'perf-plot.dat' index 2 using 1:6 with linespoints title 'auto', 'perf-plot.dat' index 2 using 1:7 with lines dashtype 2 title 'memory bound'
set title 'polygon'
plot 'perf-plot.dat' index 3 using 1:2 with linespoints title 'scalar', 'perf-plot.dat' index 3 using 1:3 with linespoints title 'scalar-all-cores', 'perf-plot.dat' index 3 using 1:4 with linespoints title 'opencl-kernel', 'perf-plot.dat' index 3 using 1:5 with linespoints title 'opencl-e2e', 'perf-plot.dat' index 3 using 1:6 with linespoints title 'auto', 'perf-plot.dat' index 3 using 1:7 with lines dashtype 2 title 'memory bound'
set title 'box-columns'
plot 'perf-plot.dat' index 4 using 1:2 with linespoints title 'scalar', 'perf-plot.dat' index 4 using 1:3 with linespoints title 'scalar-all-cores', 'perf-plot.dat' index 4 using 1:4 with linespoints title 'opencl-kernel', 'perf-plot.dat' index 4 using 1:5 with linespoints title 'opencl-e2e', 'perf-plot.dat' index 4 using 1:6 with linespoints title 'auto', 'perf-plot.dat' index 4 using 1:7 with lines dashtype 2 title 'memory bound'
set title 'circle-columns'
plot 'perf-plot.dat' index 5 using 1:2 with linespoints title 'scalar', 'perf-plot.dat' index 5 using 1:3 with linespoints title 'scalar-all-cores', 'perf-plot.dat' index 5 using 1:4 with linespoints title 'opencl-kernel', 'perf-plot.dat' index 5 using 1:5 with linespoints title 'opencl-e2e', 'perf-plot.dat' index 5 using 1:6 with linespoints title 'auto', 'perf-plot.dat' index 5 using 1:7 with lines dashtype 2 title 'memory bound'
set title 'circle-box-columns'
plot 'perf-plot.dat' index 6 using 1:2 with linespoints title 'scalar', 'perf-plot.dat' index 6 using 1:3 with linespoints title 'scalar-all-cores', 'perf-plot.dat' index 6 using 1:4 with linespoints title 'opencl-kernel', 'perf-plot.dat' index 6 using 1:5 with linespoints title 'opencl-e2e', 'perf-plot.dat' index 6 using 1:6 with linespoints title 'auto', 'perf-plot.dat' index 6 using 1:7 with lines dashtype 2 title 'memory bound'
unset multiplot
