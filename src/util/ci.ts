/** Whether this runs on CI as Jest tells (`CI` set to anything but `false`): snapshots are compared there, never written. */
export function onCi(env: NodeJS.ProcessEnv = process.env): boolean {
  const ci = env.CI;
  // Jest (through ci-info) counts `CI=0` as CI too; only `false` and an empty value turn it off.
  return ci !== undefined && ci !== '' && ci !== 'false';
}
