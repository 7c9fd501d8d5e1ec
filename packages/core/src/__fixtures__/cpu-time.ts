/**
 * The CPU time a call takes, in milliseconds (user + system, from `process.cpuUsage`). Unlike the
 * wall clock it barely moves when other processes share the cores, so time limits in tests hold
 * on a busy machine.
 */
export function cpuTime(call: () => unknown): number {
  const before = process.cpuUsage();
  call();
  const { user, system } = process.cpuUsage(before);
  return (user + system) / 1000;
}
