/*
 * bench_wakeup: what this machine charges for an interaction's bare
 * transport work, with no delver code at all: the floor under
 * bench_discord's "CPU per interaction".
 *
 * A child process plays Discord: at a steady rate it writes a 300-byte
 * "gateway frame" on one loopback TCP connection and answers every
 * 650-byte "REST request" on a second one with 150 bytes. This process
 * plays the bot as bare as it can be: it sleeps in epoll_wait, reads the
 * frame, writes the request, reads the answer, and sleeps again. It prints,
 * for 1,000, 2,000 and 5,000 messages a second, its own CPU time per
 * message (user + system, CLOCK_PROCESS_CPUTIME_ID) and how often it slept.
 * At a rate where each message comes alone, most of that is the machine's
 * cost of waking a sleeping process and of loopback TCP, which no program
 * avoids; the bot's figure less this one is what its code costs.
 *
 * No assertions: speed is measured, not asserted.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tests/bench/bench.h"

#define FRAME    300 /* bytes of a compressed gateway frame */
#define REQUEST  650 /* bytes of an HTTP request with its JSON body */
#define ANSWER   150 /* bytes of Discord's answer */
#define SECONDS  6
#define BUF_SIZE 65536

static int
listener(int *port)
{
	struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
	socklen_t len = sizeof(a);
	int s = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (s < 0 || bind(s, (struct sockaddr *)&a, sizeof(a)) < 0 || listen(s, 4) < 0 ||
	    getsockname(s, (struct sockaddr *)&a, &len) < 0) {
		perror("bench_wakeup: listen");
		exit(1);
	}
	*port = ntohs(a.sin_port);
	return s;
}

static void
no_delay(int s)
{
	int one = 1;

	setsockopt(s, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
}

static int
dial(int port)
{
	struct sockaddr_in a = {.sin_family = AF_INET,
	                        .sin_port = htons((uint16_t)port),
	                        .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
	int s = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (s < 0 || connect(s, (struct sockaddr *)&a, sizeof(a)) < 0) {
		perror("bench_wakeup: connect");
		exit(1);
	}
	no_delay(s);
	return s;
}

static void
write_all(int fd, const char *p, size_t n)
{
	while (n > 0) {
		ssize_t w = write(fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			perror("bench_wakeup: write");
			exit(1);
		}
		p += w;
		n -= (size_t)w;
	}
}

/* Discord's side: n frames at rate a second on gw, each REQUEST bytes
 * read on rest answered with ANSWER bytes; then every request still due. */
static void
discord(int gw, int rest, long n, long rate)
{
	static char buf[BUF_SIZE], frame[FRAME], answer[ANSWER];
	int ep = epoll_create1(EPOLL_CLOEXEC);
	struct epoll_event ev = {.events = EPOLLIN, .data.fd = rest};
	long got = 0, answered = 0;
	double next = bench_now_ns(), step = 1e9 / (double)rate;

	memset(frame, 'f', sizeof(frame));
	memset(answer, 'a', sizeof(answer));
	epoll_ctl(ep, EPOLL_CTL_ADD, rest, &ev);
	for (long sent = 0; sent < n || answered < n;) {
		double now = bench_now_ns();
		int k, wait_ms;

		if (sent < n && now >= next) {
			write_all(gw, frame, sizeof(frame));
			sent++;
			next += step;
			continue;
		}
		wait_ms = sent < n ? (int)((next - now) / 1e6) : 1000;
		k = epoll_wait(ep, &ev, 1, wait_ms);
		if (k == 0 && sent >= n)
			break; /* the bot stopped asking */
		if (k > 0) {
			ssize_t m = read(rest, buf, sizeof(buf));

			if (m <= 0)
				break;
			got += m;
			for (; answered < got / REQUEST; answered++)
				write_all(rest, answer, sizeof(answer));
		}
	}
	close(ep);
}

/* The bot's side: returns its CPU ns for n frames and counts its sleeps. */
static double
bot(int gw, int rest, long n, long *sleeps)
{
	static char buf[BUF_SIZE], request[REQUEST];
	int ep = epoll_create1(EPOLL_CLOEXEC);
	struct epoll_event ev = {.events = EPOLLIN, .data.fd = gw}, evs[8];
	long frames = 0, answers = 0, in = 0, back = 0;
	struct timespec t0, t1;

	memset(request, 'r', sizeof(request));
	epoll_ctl(ep, EPOLL_CTL_ADD, gw, &ev);
	ev.data.fd = rest;
	epoll_ctl(ep, EPOLL_CTL_ADD, rest, &ev);
	*sleeps = 0;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
	while (answers < n) {
		int k = epoll_wait(ep, evs, 8, 0);

		if (k == 0) {
			(*sleeps)++;
			k = epoll_wait(ep, evs, 8, 5000);
		}
		if (k <= 0)
			break;
		for (int i = 0; i < k; i++) {
			ssize_t m = read(evs[i].data.fd, buf, sizeof(buf));

			if (m <= 0)
				return -1;
			if (evs[i].data.fd == gw) {
				in += m;
				for (; frames < in / FRAME; frames++)
					write_all(rest, request, sizeof(request));
			} else {
				back += m;
				answers = back / ANSWER;
			}
		}
	}
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t1);
	close(ep);
	if (answers < n)
		return -1;
	return (double)(t1.tv_sec - t0.tv_sec) * 1e9 + (double)(t1.tv_nsec - t0.tv_nsec);
}

static void
phase(long rate)
{
	int p1, p2, l1 = listener(&p1), l2 = listener(&p2), gw, rest;
	long n = rate * SECONDS, sleeps;
	double cpu, wait0, wait1;
	pid_t child;

	fflush(stdout);
	child = fork();
	if (child < 0) {
		perror("bench_wakeup: fork");
		exit(1);
	}
	if (child == 0) {
		gw = accept(l1, NULL, NULL);
		rest = accept(l2, NULL, NULL);
		if (gw < 0 || rest < 0)
			_exit(1);
		no_delay(gw);
		no_delay(rest);
		discord(gw, rest, n, rate);
		_exit(0);
	}
	gw = dial(p1);
	rest = dial(p2);
	wait0 = bench_runq_wait_ns(NULL);
	cpu = bot(gw, rest, n, &sleeps);
	wait1 = bench_runq_wait_ns(NULL);
	close(gw);
	close(rest);
	close(l1);
	close(l2);
	waitpid(child, NULL, 0);
	if (cpu < 0) {
		printf("%5ld/s: the exchange broke off\n", rate);
		return;
	}
	printf("%5ld/s for %d s: CPU %6.1f us per message, %.2f sleeps per message; waited %.1f "
	       "ms for a CPU\n",
	       rate, SECONDS, cpu / 1e3 / (double)n, (double)sleeps / (double)n,
	       (wait1 - wait0) / 1e6);
}

int
main(void)
{
	static const long rates[] = {1000, 2000, 5000};

	printf("bare transport (no delver code): a %d-byte frame in, a %d-byte request out, a "
	       "%d-byte answer in, over loopback TCP\n",
	       FRAME, REQUEST, ANSWER);
	for (size_t i = 0; i < sizeof(rates) / sizeof(rates[0]); i++)
		phase(rates[i]);
	return 0;
}
