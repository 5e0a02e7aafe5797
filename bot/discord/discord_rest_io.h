/*
 * discord_rest_io: libcurl's multi interface on the libuv loop, for
 * discord_rest. libcurl names the sockets to watch and the time of its
 * next timeout; these callbacks turn them into uv_poll handles and a
 * uv_timer, and each event is handed back to libcurl
 * (curl_multi_socket_action), after which discord_rest takes what
 * finished. Every poll handle counts among the rest's open handles, freed
 * after its close callback.
 */
#ifndef DELVER_DISCORD_REST_IO_H
#define DELVER_DISCORD_REST_IO_H

#include <curl/curl.h>

struct curlio;

/* CURLMOPT_SOCKETFUNCTION (its data, userp, is the struct curlio). */
int discord_rest_io_socket(CURL *e, curl_socket_t fd, int action, void *userp, void *socketp);
/* CURLMOPT_TIMERFUNCTION (its data, userp, is the struct curlio). */
int discord_rest_io_timer(CURLM *m, long timeout_ms, void *userp);
/* CURLOPT_CLOSESOCKETFUNCTION (its data, clientp, is the struct curlio):
 * curl closes a socket; its poll handle goes first. */
int discord_rest_io_close_socket(void *clientp, curl_socket_t fd);
/* Closes every poll handle left (discord_rest_close). */
void discord_rest_io_close_socks(struct curlio *io);

#endif
