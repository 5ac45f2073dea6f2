// syncfs(2): glibc declares it only under _GNU_SOURCE, which Swift's Glibc module is built without.
#if defined(__linux__)
int syncfs(int fd);
#endif
