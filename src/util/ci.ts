/** Whether this runs on CI as Jest tells (`CI` set to anything but `false`): snapshots are compared there, never written. */
export function onCi(env: NodeJS.ProcessEnv = process.env): boolean {
  const ci = env.CI;
  return ci !== undefined && ci !== '' && ci !== 'false' && ci !== '0';
}
