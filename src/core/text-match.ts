/** Regex-escape a literal. */
function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * A matcher for any of the given phrases as whole words, case-insensitive, Unicode-aware
 * ("Al" matches "Al fixed it" but not "Also"). Inner whitespace matches any run of spaces.
 */
export function wholeWordMatcher(phrases: readonly string[]): RegExp | null {
  const parts = phrases
    .map((p) => p.trim())
    .filter((p) => p.length > 0)
    .sort((a, b) => b.length - a.length)
    .map((p) => escapeRegExp(p).replace(/\s+/g, '\\s+'));
  if (parts.length === 0) return null;
  return new RegExp(`(?<![\\p{L}\\p{N}])(?:${parts.join('|')})(?![\\p{L}\\p{N}])`, 'iu');
}
