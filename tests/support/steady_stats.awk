# The rows of a stats.csv without its wall-clock columns (those named time_*:
# time_assembly .. time_total, time_ccd, time_broad_phase, time_symbolic,
# time_constraint_search, time_energy), which differ between runs by nature;
# everything else (Newton counts, energies, momenta, per-object contact
# forces) is kept, so two runs that should be bit-identical compare equal
# with cmp. Used by tests/resume_test.sh and tests/cluster/slurm_test.sh.
#   awk -F, -f tests/support/steady_stats.awk DIR/stats.csv
NR == 1 {
    for (i = 1; i <= NF; i++) keep[i] = $i !~ /^time_/
}
{
    line = ""
    sep = ""
    for (i = 1; i <= NF; i++)
        if (keep[i]) {
            line = line sep $i
            sep = ","
        }
    print line
}
