#!/bin/bash
# usage: run.sh LABEL THREADS cmd...
# Waits until the 1-min load average is < 0.5 and the CPUs were < 10% busy over a 3 s sample,
# then runs cmd with OMP_NUM_THREADS=OPENBLAS_NUM_THREADS=THREADS under /usr/bin/time -v.
# Also measures CPU time used by *other* processes during the run (from /proc/stat minus own CPU).
set -u
label=$1; th=$2; shift 2
mkdir -p logs
stat() { awk '/^cpu /{print $2+$3+$4+$7+$8, $9, $2+$3+$4+$5+$6+$7+$8+$9}' /proc/stat; }
while :; do
  l=$(cut -d' ' -f1 /proc/loadavg)
  read b0 s0 t0 < <(stat); sleep 3; read b1 s1 t1 < <(stat)
  busy=$(awk -v a=$b0 -v b=$b1 -v c=$t0 -v d=$t1 'BEGIN{printf "%.1f", 100*(b-a)/(d-c)}')
  if awk -v l="$l" -v u="$busy" 'BEGIN{exit !(l < 0.5 && u < 10)}'; then break; fi
  echo "$(date +%T) $label: load $l, busy ${busy}% -> waiting" >> logs/wait.log
  sleep 15
done
{ echo "label=$label threads=$th load1_at_start=$l busy3s_before=${busy}% loadavg=\"$(cat /proc/loadavg)\" date=$(date +%T)";
  ps -eo pid,pcpu,etime,comm --sort=-pcpu | head -6; } > logs/$label.env
read b0 s0 t0 < <(stat)
OMP_NUM_THREADS=$th OPENBLAS_NUM_THREADS=$th /usr/bin/time -v -o logs/$label.time "$@" > logs/$label.out 2>&1
rc=$?
read b1 s1 t1 < <(stat)
own=$(awk -F': ' '/User time|System time/{s+=$2} END{printf "%.2f", s}' logs/$label.time)
other=$(awk -v a=$b0 -v b=$b1 -v o=$own 'BEGIN{printf "%.2f", (b-a)/100 - o}')
steal=$(awk -v a=$s0 -v b=$s1 'BEGIN{printf "%.2f", (b-a)/100}')
echo "$label rc=$rc load1=$l busy_before=${busy}% other_cpu_s=$other steal_s=$steal own_cpu_s=$own $(grep SUMMARY logs/$label.out) maxrss_kB=$(awk '/Maximum resident/{print $NF}' logs/$label.time) wall=$(awk '/Elapsed/{print $NF}' logs/$label.time)" | tee -a logs/summary.txt
