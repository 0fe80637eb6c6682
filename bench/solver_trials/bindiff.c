/* bindiff a.bin b.bin : number of differing doubles and max |a-b| / max |a| */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
int main(int argc, char **argv) {
    FILE *fa = fopen(argv[1], "rb"), *fb = fopen(argv[2], "rb");
    double x, y, md = 0, mx = 0;
    long n = 0, nd = 0;
    if (!fa || !fb) return 2;
    while (fread(&x, 8, 1, fa) == 1 && fread(&y, 8, 1, fb) == 1) {
        n++;
        if (x != y) nd++;
        if (fabs(x - y) > md) md = fabs(x - y);
        if (fabs(x) > mx) mx = fabs(x);
    }
    printf("n=%ld differing=%ld maxabsdiff/max|x|=%.3e\n", n, nd, md / mx);
    return 0;
}
