/* SPDX-License-Identifier: GPL-2.0 */
#ifndef COMPAT_SCM_H
#define COMPAT_SCM_H

/* Send fd over the unix socket sock; on failure, say so on stderr. */
void send_fd(int sock, int fd);
/* Receive one fd from sock: the fd, or -1. */
int recv_fd(int sock);

#endif
