#include <gio/gio.h>
#include <gio/gdesktopappinfo.h>
#include <sys/prctl.h>

/* prctl is variadic and cannot be called from Swift: a fixed-argument wrapper. */
static inline int openurld_set_child_subreaper(void) {
    return prctl(PR_SET_CHILD_SUBREAPER, 1UL, 0UL, 0UL, 0UL);
}

#include <spawn.h>
/* glibc >= 2.34 has this, but declares it only under _GNU_SOURCE, which Swift's Glibc module lacks. */
extern int posix_spawn_file_actions_addclosefrom_np(posix_spawn_file_actions_t *actions, int from);
static inline int openurld_spawn_addclosefrom(posix_spawn_file_actions_t *actions, int from) {
    return posix_spawn_file_actions_addclosefrom_np(actions, from);
}
extern int posix_spawn_file_actions_addchdir_np(posix_spawn_file_actions_t *actions, const char *path);
static inline int openurld_spawn_addchdir(posix_spawn_file_actions_t *actions, const char *path) {
    return posix_spawn_file_actions_addchdir_np(actions, path);
}
