// eio-fs: a passthrough FUSE file system over a backing folder whose writes fail with a real
// EIO while a switch says so (issue 47's EIO rows of the full-disk suite).
//
//   eio-fs BACKING SWITCH MOUNTPOINT
//
// Mounts BACKING at MOUNTPOINT in the foreground, prints "ready" once mounted, and serves
// until unmounted (or SIGTERM, or its parent's death). SWITCH is a file, read at each
// operation: while it exists, the operations it names (words separated by spaces) fail
// with EIO: `write` (nothing reaches the backing file), `torn` (the first half of the write
// reaches it, then EIO: a half-written line), `fsync`, `create` (create, mkdir, link,
// symlink), `truncate`, `rename`, `unlink` (unlink, rmdir). Everything else passes through.
#define FUSE_USE_VERSION 31
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fuse.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

static const char *backing;
static const char *switch_path;

// The backing path of `path` (a mount-relative path starting with '/').
static const char *real(const char *path, char *out) {
  snprintf(out, PATH_MAX, "%s%s", backing, path);
  return out;
}

// Whether the switch names `op` now.
static int failing(const char *op) {
  char words[256];
  int fd = open(switch_path, O_RDONLY);
  if (fd < 0) return 0;
  ssize_t n = read(fd, words, sizeof words - 1);
  close(fd);
  if (n < 0) return 0;
  words[n] = '\0';
  for (char *w = strtok(words, " \t\n"); w != NULL; w = strtok(NULL, " \t\n"))
    if (strcmp(w, op) == 0) return 1;
  return 0;
}

#define RET(call) return (call) == -1 ? -errno : 0
#define P(path) real(path, buf)

static int fs_getattr(const char *path, struct stat *st, struct fuse_file_info *fi) {
  char buf[PATH_MAX];
  if (fi != NULL) RET(fstat(fi->fh, st));
  RET(lstat(P(path), st));
}

static int fs_access(const char *path, int mask) { char buf[PATH_MAX]; RET(access(P(path), mask)); }

static int fs_readlink(const char *path, char *out, size_t size) {
  char buf[PATH_MAX];
  ssize_t n = readlink(P(path), out, size - 1);
  if (n == -1) return -errno;
  out[n] = '\0';
  return 0;
}

static int fs_readdir(const char *path, void *out, fuse_fill_dir_t fill, off_t offset,
                      struct fuse_file_info *fi, enum fuse_readdir_flags flags) {
  char buf[PATH_MAX];
  (void)offset, (void)fi, (void)flags;
  DIR *dir = opendir(P(path));
  if (dir == NULL) return -errno;
  for (struct dirent *e; (e = readdir(dir)) != NULL;) {
    struct stat st = {.st_ino = e->d_ino, .st_mode = (mode_t)DTTOIF(e->d_type)};
    if (fill(out, e->d_name, &st, 0, 0)) break;
  }
  closedir(dir);
  return 0;
}

static int fs_mkdir(const char *path, mode_t mode) {
  char buf[PATH_MAX];
  if (failing("create")) return -EIO;
  RET(mkdir(P(path), mode));
}

static int fs_unlink(const char *path) {
  char buf[PATH_MAX];
  if (failing("unlink")) return -EIO;
  RET(unlink(P(path)));
}

static int fs_rmdir(const char *path) {
  char buf[PATH_MAX];
  if (failing("unlink")) return -EIO;
  RET(rmdir(P(path)));
}

static int fs_symlink(const char *target, const char *path) {
  char buf[PATH_MAX];
  if (failing("create")) return -EIO;
  RET(symlink(target, P(path)));
}

static int fs_rename(const char *from, const char *to, unsigned int flags) {
  char a[PATH_MAX], b[PATH_MAX];
  if (failing("rename")) return -EIO;
  RET(renameat2(AT_FDCWD, real(from, a), AT_FDCWD, real(to, b), flags));
}

static int fs_link(const char *from, const char *to) {
  char a[PATH_MAX], b[PATH_MAX];
  if (failing("create")) return -EIO;
  RET(link(real(from, a), real(to, b)));
}

static int fs_chmod(const char *path, mode_t mode, struct fuse_file_info *fi) {
  char buf[PATH_MAX];
  if (fi != NULL) RET(fchmod(fi->fh, mode));
  RET(chmod(P(path), mode));
}

static int fs_chown(const char *path, uid_t uid, gid_t gid, struct fuse_file_info *fi) {
  char buf[PATH_MAX];
  if (fi != NULL) RET(fchown(fi->fh, uid, gid));
  RET(lchown(P(path), uid, gid));
}

static int fs_truncate(const char *path, off_t size, struct fuse_file_info *fi) {
  char buf[PATH_MAX];
  if (failing("truncate")) return -EIO;
  if (fi != NULL) RET(ftruncate(fi->fh, size));
  RET(truncate(P(path), size));
}

static int fs_utimens(const char *path, const struct timespec tv[2], struct fuse_file_info *fi) {
  char buf[PATH_MAX];
  if (fi != NULL) RET(futimens(fi->fh, tv));
  RET(utimensat(AT_FDCWD, P(path), tv, AT_SYMLINK_NOFOLLOW));
}

static int fs_create(const char *path, mode_t mode, struct fuse_file_info *fi) {
  char buf[PATH_MAX];
  if (failing("create")) return -EIO;
  int fd = open(P(path), fi->flags, mode);
  if (fd == -1) return -errno;
  fi->fh = fd;
  return 0;
}

static int fs_open(const char *path, struct fuse_file_info *fi) {
  char buf[PATH_MAX];
  int fd = open(P(path), fi->flags);
  if (fd == -1) return -errno;
  fi->fh = fd;
  return 0;
}

static int fs_read(const char *path, char *out, size_t size, off_t offset,
                   struct fuse_file_info *fi) {
  (void)path;
  ssize_t n = pread(fi->fh, out, size, offset);
  return n == -1 ? -errno : (int)n;
}

static int fs_write(const char *path, const char *data, size_t size, off_t offset,
                    struct fuse_file_info *fi) {
  (void)path;
  if (failing("write")) return -EIO;
  if (failing("torn")) {
    // A device that took part of the write before it failed.
    if (size > 1 && pwrite(fi->fh, data, size / 2, offset) == -1) return -errno;
    return -EIO;
  }
  ssize_t n = pwrite(fi->fh, data, size, offset);
  return n == -1 ? -errno : (int)n;
}

static int fs_statfs(const char *path, struct statvfs *st) { char buf[PATH_MAX]; RET(statvfs(P(path), st)); }

static int fs_release(const char *path, struct fuse_file_info *fi) {
  (void)path;
  close(fi->fh);
  return 0;
}

static int fs_fsync(const char *path, int datasync, struct fuse_file_info *fi) {
  (void)path;
  if (failing("fsync")) return -EIO;
  RET(datasync ? fdatasync(fi->fh) : fsync(fi->fh));
}

static void *fs_init(struct fuse_conn_info *conn, struct fuse_config *cfg) {
  (void)conn;
  // Sizes and names straight from the backing folder: no stale size after a torn write.
  cfg->use_ino = 1;
  cfg->entry_timeout = 0;
  cfg->attr_timeout = 0;
  cfg->negative_timeout = 0;
  return NULL;
}

static const struct fuse_operations ops = {
    .init = fs_init,         .getattr = fs_getattr, .access = fs_access,
    .readlink = fs_readlink, .readdir = fs_readdir, .mkdir = fs_mkdir,
    .unlink = fs_unlink,     .rmdir = fs_rmdir,     .symlink = fs_symlink,
    .rename = fs_rename,     .link = fs_link,       .chmod = fs_chmod,
    .chown = fs_chown,       .truncate = fs_truncate, .utimens = fs_utimens,
    .create = fs_create,     .open = fs_open,       .read = fs_read,
    .write = fs_write,       .statfs = fs_statfs,   .release = fs_release,
    .fsync = fs_fsync,
};

int main(int argc, char *argv[]) {
  if (argc != 4) {
    fprintf(stderr, "usage: eio-fs BACKING SWITCH MOUNTPOINT\n");
    return 2;
  }
  backing = argv[1];
  switch_path = argv[2];
  prctl(PR_SET_PDEATHSIG, SIGTERM); // never outlive the run that mounted it
  char *fuse_argv[] = {argv[0], "-o", "fsname=eio-fs", NULL};
  struct fuse_args args = FUSE_ARGS_INIT(3, fuse_argv);
  struct fuse *fuse = fuse_new(&args, &ops, sizeof ops, NULL);
  if (fuse == NULL) return 1;
  if (fuse_mount(fuse, argv[3]) != 0) return 1;
  struct fuse_session *session = fuse_get_session(fuse);
  fuse_set_signal_handlers(session);
  printf("ready\n");
  fflush(stdout);
  int status = fuse_loop(fuse);
  fuse_remove_signal_handlers(session);
  fuse_unmount(fuse);
  fuse_destroy(fuse);
  return status == 0 ? 0 : 1;
}
