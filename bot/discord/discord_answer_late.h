/*
 * discord_answer_late: the interactions that a resume replays too late to
 * answer, for discord.c.
 *
 * Such an interaction is not worked out (discord_interact_event shed it);
 * it may be one that the process before this one answered, or not. Discord
 * tells which: its original response (GET @original) exists, and is no
 * deferral left loading, when an earlier process answered it; the
 * interaction is counted so (discord_stats' replayed_answered), else as
 * shed, summed up apart from overload (discord_unanswered.h). A
 * resume asks that of DISCORD_LATE_CHECKS_MAX replays at most (a process
 * down for long is replayed thousands, and each GET is a request of its
 * own); those past it are counted as not known (replayed_unknown) and the
 * first of them is logged, once per resume.
 *
 * An autocomplete is neither checked nor counted as shed: it changed
 * nothing, Discord keeps no response of it to ask about, and its
 * suggestions are of no use once its window is over (the user typed on).
 * It is dropped without a request or a warning, and counted apart
 * (replayed_autocompletes).
 *
 * Everything here runs on the transport's loop and works on the struct
 * discord of discord_int.h; nothing outside bot/discord/discord*.c includes
 * this header.
 */
#ifndef DELVER_DISCORD_ANSWER_LATE_H
#define DELVER_DISCORD_ANSWER_LATE_H

#define DISCORD_LATE_CHECKS_MAX 100

struct cJSON;
struct discord;
struct discord_shard;

/* d, an INTERACTION_CREATE's data replayed on shard s after a resume,
 * came too late to answer: counted as above. Until it is counted and that
 * count logged (or found answered), it holds s's resume point
 * (discord_shard_interaction; s NULL: none): a process killed meanwhile
 * leaves it to the next one's replay. */
void discord_answer_late_replay(struct discord *dc, struct discord_shard *s, const struct cJSON *d);

/* A shard's replays are over (RESUMED, or a READY that starts anew): how
 * many were past the cap is logged (so that the unanswered counts of the
 * log have a known bound), and the next resume may check
 * DISCORD_LATE_CHECKS_MAX again. */
void discord_answer_late_over(struct discord *dc);

#endif
