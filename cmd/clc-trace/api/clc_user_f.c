/* clc_user_f.c: user regions for clc-trace from Fortran (docs/tracer.md,
 * "User regions"). Compile it with the program's C compiler and link it:
 *
 *   mpicc -c clc_user_f.c && mpif90 app.f90 clc_user_f.o
 *
 *   call clc_region_begin('solve')
 *   ...
 *   call clc_region_end('solve')
 *
 * Trailing blanks of the name are ignored. Without clc-trace the calls do
 * nothing (the library's functions are weak references). */
#include <stddef.h>

void clc_region_begin_n(const char *name, size_t n) __attribute__((weak));
void clc_region_end_n(const char *name, size_t n) __attribute__((weak));

#define CLC_NOINSTR __attribute__((no_instrument_function))

CLC_NOINSTR static size_t clc_trim(const char *s, size_t n) {
  while (n > 0 && s[n - 1] == ' ') n--;
  return n;
}

/* gfortran, Intel, flang: lower case and one underscore; f2c-style
 * compilers: two for names that hold an underscore. The hidden length of
 * a CHARACTER argument comes last. */
CLC_NOINSTR void clc_region_begin_(const char *name, size_t n) {
  if (clc_region_begin_n) clc_region_begin_n(name, clc_trim(name, n));
}
CLC_NOINSTR void clc_region_end_(const char *name, size_t n) {
  if (clc_region_end_n) clc_region_end_n(name, clc_trim(name, n));
}
CLC_NOINSTR void clc_region_begin__(const char *name, size_t n) { clc_region_begin_(name, n); }
CLC_NOINSTR void clc_region_end__(const char *name, size_t n) { clc_region_end_(name, n); }
