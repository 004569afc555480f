/* clc_user.h: user regions for clc-trace (docs/tracer.md, "User regions").
 *
 *   #include "clc_user.h"
 *   CLC_REGION_BEGIN("solve");
 *   ...
 *   CLC_REGION_END("solve");
 *
 * A region is recorded between MPI_Init and MPI_Finalize by the thread
 * that called MPI_Init; regions nest, and CLC_REGION_END of a region
 * leaves the regions opened inside it too. A program built with this
 * header runs with and without clc-trace: the functions are weak
 * references, which only clc-trace's library (preloaded) defines. No
 * library needs to be linked. */
#ifndef CLC_USER_H
#define CLC_USER_H

#ifdef __cplusplus
extern "C" {
#endif

void clc_region_begin(const char *name) __attribute__((weak));
void clc_region_end(const char *name) __attribute__((weak));

#ifdef __cplusplus
}
#endif

#define CLC_REGION_BEGIN(name) \
  do { if (clc_region_begin) clc_region_begin(name); } while (0)
#define CLC_REGION_END(name) \
  do { if (clc_region_end) clc_region_end(name); } while (0)

#endif
