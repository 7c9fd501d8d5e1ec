/** Exit codes that tell success, a user's mistake and a failure apart (as sysexits does). */
export const EXIT_SUCCESS = 0;
/** The run finished but failed (an env failed its checks, a job crashed). */
export const EXIT_FAILURE = 1;
/** The command line or a config was wrong: fix the input and run again. */
export const EXIT_USAGE = 2;
/** The user stopped the run (Ctrl-C); it ended cleanly, as shells report a SIGINT. */
export const EXIT_CANCELLED = 130;
