// src/hosts/nginx/hash-sizing.ts
// The map hash sizing nginx-http.conf's maps need: nginx refuses a config whose longest map key does not fit a bucket.

/** nginx's defaults: map_hash_bucket_size is the CPU's cache line (64 bytes on most), map_hash_max_size 2048. */
const DEFAULT_BUCKET = 64;
const DEFAULT_MAX_SIZE = 2048;

/**
 * The map hash sizing the printed maps need, as http-level directives (none when nginx's defaults do). nginx refuses
 * the whole config ("could not build map_hash, you should increase map_hash_bucket_size") when one key does not fit a
 * bucket: an entry takes a pointer plus its key and 2 bytes rounded up to a pointer (ngx_hash.c, NGX_HASH_ELT_SIZE),
 * and a bucket also ends with a pointer. Too small a max_size only costs a warning, but we size it too.
 */
export function mapHashSizing(mapLines: readonly string[]): string[] {
  let longest = 0;
  let most = 0;
  let inMap = false;
  let count = 0;
  for (const line of mapLines) {
    if (line.startsWith("map ") && /^map .*\{$/.test(line)) {
      inMap = true;
      count = 0;
      continue;
    }
    if (!inMap || line.startsWith('    "~')) continue; // a regex entry (the slow path's run to 2,500 characters): no hash key
    if (line === "}") {
      inMap = false;
      most = Math.max(most, count);
      continue;
    }
    // A hash key: any entry but comments, regexes (quoted "~…" or ~…) and the default.
    const key = /^\s+(\S*?)\s/.exec(line)?.[1];
    if (key === undefined || key.startsWith("#") || key.startsWith("~") || key.startsWith('"~') || key === "default")
      continue;
    longest = Math.max(longest, Buffer.byteLength(key));
    count += 1;
  }
  const pointer = 8;
  const entry = pointer + Math.ceil((longest + 2) / pointer) * pointer;
  const align = (n: number): number => Math.ceil(n / DEFAULT_BUCKET) * DEFAULT_BUCKET;
  // nginx's defaults do when one longest entry fits a bucket and the maps are small; otherwise buckets get room for a
  // few of the longest entries, so that a hash table not much larger than the key count fits.
  if (align(entry + pointer) <= DEFAULT_BUCKET && 4 * most <= DEFAULT_MAX_SIZE) return [];
  const out = [
    `map_hash_bucket_size ${Math.max(DEFAULT_BUCKET, align(4 * entry + pointer))};`,
    `map_hash_max_size ${2 ** Math.ceil(Math.log2(Math.max(DEFAULT_MAX_SIZE, 4 * most)))};`,
  ];
  return [
    "# Map hash sizing these maps need (longest key, most keys): nginx refuses the config with smaller buckets.",
    "# If your http { } sets these too, keep the larger value of each and remove the other line.",
    ...out,
  ];
}
