/* clc-trace PMPI library: user regions. A program marks regions with
 * clc_region_begin/clc_region_end (C, or Fortran through clc_user_f.c; the
 * header clc-trace --write-api writes), or is compiled with
 * -finstrument-functions, whose calls of __cyg_profile_func_enter/exit
 * this library answers: the function's name comes from the symbol table
 * of the object that holds it (demangled when the program has C++'s
 * runtime). A filter (Score-P's region rules, passed by clc-trace as
 * CLC_TRACE_FILTER) decides which regions are recorded.
 *
 * A region is defined by the rank that first meets it, in the manner of
 * communicators: rank r's k-th region (k = 0, 1, ...) is region
 * R_COUNT + k*P + r of the manifest, whose name the rank writes into its
 * metadata ("uregion ID NAME"). The same name on two ranks is two
 * definitions (clc-trace's OTF2 archive has one). Regions entered before
 * MPI_Init are not recorded, nor their leaves; regions still open at
 * MPI_Finalize are left there. */
#define _GNU_SOURCE
#include "clc.h"

#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ------------------------------------------------------------------ filter */

typedef struct rule {
  int include, mangled;
  char *pattern;
} rule;
static rule *rules;
static int nrules;

/* load_filter reads the rules, one a line: "I pattern", "E pattern", "IM
 * pattern", "EM pattern" (include or exclude; M: match the mangled name). */
static void load_filter(const char *spec) {
  if (!spec || !*spec) return;
  char *s = strdup(spec);
  for (char *save = NULL, *l = strtok_r(s, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
    char *sp = strchr(l, ' ');
    if (!sp || (l[0] != 'I' && l[0] != 'E')) continue;
    rule *r = realloc(rules, sizeof *rules * (size_t)(nrules + 1));
    if (!r) break;
    rules = r;
    rules[nrules].include = l[0] == 'I';
    rules[nrules].mangled = sp - l == 2 && l[1] == 'M';
    rules[nrules].pattern = strdup(sp + 1);
    nrules++;
  }
  free(s);
}

/* included applies the rules: the last that matches decides; none: in. */
static int included(const char *name, const char *mangled) {
  int in = 1;
  for (int i = 0; i < nrules; i++)
    if (fnmatch(rules[i].pattern, rules[i].mangled ? mangled : name, 0) == 0) in = rules[i].include;
  return in;
}

/* ------------------------------------------------------------ definitions */

/* Names this rank defined, by content. */
typedef struct named {
  char *name;
  int32_t id; /* -1: filtered out */
} named;
static named *names;
static size_t nnames, names_cap;
static uint32_t defined; /* regions this rank defined */

static uint64_t hash_bytes(const char *s, size_t n) {
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < n; i++) h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
  return h;
}

static named *name_slot(const char *s, size_t n) {
  size_t i = (size_t)hash_bytes(s, n) & (names_cap - 1);
  while (names[i].name && (strncmp(names[i].name, s, n) || names[i].name[n])) i = (i + 1) & (names_cap - 1);
  return &names[i];
}

/* define returns the region of name (display) and mangled (for the
 * filter), defining it on first use; -1 when the filter leaves it out.
 * *canon is the name as kept. */
static int32_t define(const char *name, size_t n, const char *mangled, const char **canon) {
  if (2 * (nnames + 1) > names_cap) {
    size_t oc = names_cap;
    named *old = names;
    names_cap = oc ? 2 * oc : 256;
    names = calloc(names_cap, sizeof *names);
    for (size_t i = 0; i < oc; i++)
      if (old[i].name) *name_slot(old[i].name, strlen(old[i].name)) = old[i];
    free(old);
  }
  named *e = name_slot(name, n);
  if (e->name) {
    *canon = e->name;
    return e->id;
  }
  *canon = e->name = strndup(name, n);
  nnames++;
  if (!included(e->name, mangled ? mangled : e->name)) {
    e->id = -1;
    return -1;
  }
  e->id = (int32_t)(R_COUNT + defined * (uint32_t)clc_world_size + (uint32_t)clc_world_rank);
  defined++;
  clc_define_user_region((uint32_t)e->id, e->name);
  return e->id;
}

/* ----------------------------------------------------------------- symbols */

/* The function symbols of one loaded object, sorted by address. */
typedef struct symtab {
  uintptr_t base;
  size_t n;
  struct fsym { uint64_t addr, size; uint32_t name; } *syms;
  char *strs;
  struct symtab *next;
} symtab;
static symtab *tabs;

static int cmp_fsym(const void *a, const void *b) {
  const struct fsym *x = a, *y = b;
  return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* load_symtab reads the function symbols of the ELF file path (its
 * .symtab, else its .dynsym). */
static symtab *load_symtab(const char *path, uintptr_t base) {
  symtab *t = calloc(1, sizeof *t);
  if (!t) return NULL;
  t->base = base;
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  Elf64_Ehdr eh;
  if (fd < 0 || pread(fd, &eh, sizeof eh, 0) != (ssize_t)sizeof eh || memcmp(eh.e_ident, ELFMAG, SELFMAG) ||
      eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_shentsize != sizeof(Elf64_Shdr) || eh.e_shnum == 0) {
    if (fd >= 0) close(fd);
    return t;
  }
  Elf64_Shdr *sh = malloc(sizeof *sh * eh.e_shnum);
  if (!sh || pread(fd, sh, sizeof *sh * eh.e_shnum, (off_t)eh.e_shoff) != (ssize_t)(sizeof *sh * eh.e_shnum)) {
    free(sh);
    close(fd);
    return t;
  }
  int which = -1;
  for (int pass = 0; pass < 2 && which < 0; pass++)
    for (int i = 0; i < eh.e_shnum; i++)
      if (sh[i].sh_type == (pass ? SHT_DYNSYM : SHT_SYMTAB) && sh[i].sh_link < eh.e_shnum) { which = i; break; }
  if (which >= 0) {
    Elf64_Shdr *ss = &sh[which], *st = &sh[ss->sh_link];
    size_t n = ss->sh_size / sizeof(Elf64_Sym);
    Elf64_Sym *sym = malloc(ss->sh_size + 1);
    t->strs = malloc(st->sh_size + 1);
    t->syms = malloc(sizeof *t->syms * (n + 1));
    if (sym && t->strs && t->syms && pread(fd, sym, ss->sh_size, (off_t)ss->sh_offset) == (ssize_t)ss->sh_size &&
        pread(fd, t->strs, st->sh_size, (off_t)st->sh_offset) == (ssize_t)st->sh_size) {
      t->strs[st->sh_size] = 0;
      for (size_t i = 0; i < n; i++) {
        int type = ELF64_ST_TYPE(sym[i].st_info);
        if ((type != STT_FUNC && type != STT_GNU_IFUNC) || sym[i].st_shndx == SHN_UNDEF || !sym[i].st_value ||
            sym[i].st_name >= st->sh_size)
          continue;
        t->syms[t->n++] = (struct fsym){sym[i].st_value, sym[i].st_size, sym[i].st_name};
      }
      qsort(t->syms, t->n, sizeof *t->syms, cmp_fsym);
    } else {
      t->n = 0;
    }
    free(sym);
  }
  free(sh);
  close(fd);
  return t;
}

struct find { uintptr_t addr, base; const char *path; };

static int find_object(struct dl_phdr_info *info, size_t size, void *data) {
  (void)size;
  struct find *f = data;
  for (int i = 0; i < info->dlpi_phnum; i++) {
    const ElfW(Phdr) *p = &info->dlpi_phdr[i];
    if (p->p_type != PT_LOAD) continue;
    uintptr_t lo = info->dlpi_addr + p->p_vaddr;
    if (f->addr >= lo && f->addr < lo + p->p_memsz) {
      f->base = info->dlpi_addr;
      f->path = info->dlpi_name && *info->dlpi_name ? info->dlpi_name : "/proc/self/exe";
      return 1;
    }
  }
  return 0;
}

/* symbol names the function at fn: a malloc'd string, and its mangled
 * form in *mangled (NULL when it is the same). */
static char *symbol(void *fn, char **mangled) {
  *mangled = NULL;
  struct find f = {(uintptr_t)fn, 0, NULL};
  char *out = NULL;
  if (dl_iterate_phdr(find_object, &f) && f.path) {
    symtab *t = tabs;
    while (t && t->base != f.base) t = t->next;
    if (!t && (t = load_symtab(f.path, f.base))) {
      t->next = tabs;
      tabs = t;
    }
    if (t && t->n) {
      uint64_t a = (uint64_t)(f.addr - f.base);
      size_t lo = 0, hi = t->n;
      while (hi - lo > 1) {
        size_t mid = (lo + hi) / 2;
        if (t->syms[mid].addr <= a) lo = mid; else hi = mid;
      }
      struct fsym *s = &t->syms[lo];
      if (s->addr <= a && (a < s->addr + s->size || (s->size == 0 && a == s->addr))) out = strdup(t->strs + s->name);
    }
  }
  if (!out) {
    Dl_info di;
    if (dladdr(fn, &di) && di.dli_sname && di.dli_saddr == fn) out = strdup(di.dli_sname);
  }
  if (!out) {
    char b[64];
    snprintf(b, sizeof b, "%p", fn);
    return strdup(b);
  }
  if (!strncmp(out, "_Z", 2)) {
    typedef char *(*demangle_fn)(const char *, char *, size_t *, int *);
    static demangle_fn dm;
    static int looked;
    if (!looked) {
      looked = 1;
      dm = (demangle_fn)dlsym(RTLD_DEFAULT, "__cxa_demangle");
    }
    int st = -1;
    char *d = dm ? dm(out, NULL, NULL, &st) : NULL;
    if (d && st == 0) {
      *mangled = out;
      return d;
    }
    free(d);
  }
  return out;
}

/* --------------------------------------------------------------- lookups */

/* A cache by key (a function's address, or the pointer and length of an
 * API name) of region ids. */
typedef struct cached {
  const void *key;
  size_t len;
  int32_t id;
  const char *name; /* API names: the content it stood for (a buffer may change) */
} cached;
typedef struct cache {
  cached *e;
  size_t n, cap;
} cache;
static cache fn_cache, api_cache;

static cached *cache_slot(cache *c, const void *key, size_t len) {
  uint64_t k = (uint64_t)(uintptr_t)key ^ (uint64_t)len * 0x9E3779B97F4A7C15ull;
  k ^= k >> 33; k *= 0xff51afd7ed558ccdull; k ^= k >> 33;
  size_t i = (size_t)k & (c->cap - 1);
  while (c->e[i].key && (c->e[i].key != key || c->e[i].len != len)) i = (i + 1) & (c->cap - 1);
  return &c->e[i];
}

static cached *cache_get(cache *c, const void *key, size_t len, int *fresh) {
  if (2 * (c->n + 1) > c->cap) {
    size_t oc = c->cap;
    cached *old = c->e;
    c->cap = oc ? 2 * oc : 256;
    c->e = calloc(c->cap, sizeof *c->e);
    for (size_t i = 0; i < oc; i++)
      if (old[i].key) *cache_slot(c, old[i].key, old[i].len) = old[i];
    free(old);
  }
  cached *e = cache_slot(c, key, len);
  *fresh = !e->key;
  if (*fresh) {
    e->key = key;
    e->len = len;
    c->n++;
  }
  return e;
}

static int32_t fn_region(void *fn) {
  int fresh;
  cached *e = cache_get(&fn_cache, fn, 0, &fresh);
  if (fresh) {
    char *mangled, *name = symbol(fn, &mangled);
    e->id = define(name, strlen(name), mangled, &e->name);
    free(name);
    free(mangled);
  }
  return e->id;
}

static int32_t api_region(const char *name, size_t n) {
  int fresh;
  cached *e = cache_get(&api_cache, name, n, &fresh);
  if (fresh || memcmp(e->name, name, n) || e->name[n]) e->id = define(name, n, NULL, &e->name);
  return e->id;
}

/* ------------------------------------------------------------- the stack */

static int32_t *stack;
static size_t depth, stack_cap;

static void begin(int32_t id, int64_t t) {
  if (depth == stack_cap) {
    size_t c = stack_cap ? 2 * stack_cap : 64;
    int32_t *s = realloc(stack, sizeof *stack * c);
    if (!s) return;
    stack = s;
    stack_cap = c;
  }
  stack[depth++] = id;
  clc_user_event(K_ENTER, t, (uint32_t)id);
}

/* end leaves region id: the regions opened inside it and not left (a
 * longjmp, an exception) are left first; a region not open (entered
 * before MPI_Init) leaves nothing. */
static void end(int32_t id, int64_t t) {
  size_t i = depth;
  while (i > 0 && stack[i - 1] != id) i--;
  if (i == 0) return;
  while (depth >= i) clc_user_event(K_LEAVE, t, (uint32_t)stack[--depth]);
}

void clc_user_close(int64_t t) {
  while (depth > 0) clc_user_event(K_LEAVE, t, (uint32_t)stack[--depth]);
}

void clc_user_init(void) { load_filter(getenv("CLC_TRACE_FILTER")); }

/* clc_filter_valid reports whether every line of spec is a rule
 * load_filter takes. */
int clc_filter_valid(const char *spec) {
  for (const char *l = spec; *l;) {
    const char *nl = strchr(l, '\n'), *e = nl ? nl : l + strlen(l);
    const char *sp = memchr(l, ' ', (size_t)(e - l));
    if (e > l && (!sp || sp == e - 1 || (l[0] != 'I' && l[0] != 'E') || (sp - l == 2 && l[1] != 'M') || sp - l > 2)) return 0;
    l = nl ? nl + 1 : e;
  }
  return 1;
}

/* -------------------------------------------------------------- the API */

CLC_EXPORT void clc_region_begin_n(const char *name, size_t n) {
  if (!CLC_ON() || !name) return;
  const int64_t t = clc_now();
  clc_t = 2;
  int32_t id = api_region(name, n);
  if (id >= 0) begin(id, t);
  clc_t = 1;
}

CLC_EXPORT void clc_region_end_n(const char *name, size_t n) {
  if (!CLC_ON() || !name) return;
  const int64_t t = clc_now();
  clc_t = 2;
  int32_t id = api_region(name, n);
  if (id >= 0) end(id, t);
  clc_t = 1;
}

CLC_EXPORT void clc_region_begin(const char *name) {
  if (CLC_ON() && name) clc_region_begin_n(name, strlen(name));
}

CLC_EXPORT void clc_region_end(const char *name) {
  if (CLC_ON() && name) clc_region_end_n(name, strlen(name));
}

CLC_EXPORT void __cyg_profile_func_enter(void *fn, void *site) {
  (void)site;
  if (!CLC_ON()) return;
  const int64_t t = clc_now();
  clc_t = 2;
  int32_t id = fn_region(fn);
  if (id >= 0) begin(id, t);
  clc_t = 1;
}

CLC_EXPORT void __cyg_profile_func_exit(void *fn, void *site) {
  (void)site;
  if (!CLC_ON()) return;
  const int64_t t = clc_now();
  clc_t = 2;
  int32_t id = fn_region(fn);
  if (id >= 0) end(id, t);
  clc_t = 1;
}
