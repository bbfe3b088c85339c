/** A word: a maximal run of letters and digits. Text and needle are split the same way. */
const WORD = /[\p{L}\p{N}]+/gu;

/** Below this many candidates from whole-word lookups, scanning the vocabulary for partial words is not worth it. */
const FEW = 256;

/**
 * An inverted index from each distinct word of the (lower-cased) review texts to the ascending
 * positions of the reviews containing it. It narrows a substring search to candidate reviews;
 * the caller still checks each candidate, so the index only has to never miss one.
 */
export class WordIndex {
  private readonly postings = new Map<string, Int32Array>();
  /** Every distinct word between newlines: one indexOf scan finds the words containing a part. */
  private readonly vocabulary: string;

  constructor(private readonly lowerText: readonly string[]) {
    const lists = new Map<string, number[]>();
    for (let i = 0; i < lowerText.length; i++) {
      for (const m of lowerText[i]!.matchAll(WORD)) {
        let list = lists.get(m[0]);
        if (list === undefined) lists.set(m[0], (list = []));
        // Positions arrive in order, so a repeat of the word in this review is the last entry.
        if (list[list.length - 1] !== i) list.push(i);
      }
    }
    for (const [word, list] of lists) this.postings.set(word, Int32Array.from(list));
    this.vocabulary = `\n${[...this.postings.keys()].join('\n')}\n`;
  }

  /**
   * Ascending positions of the reviews that may contain `needle` (lower-cased), or null when
   * the needle has no letter or digit to look up. A needle word with a non-word character on
   * both sides must be a whole word of the text; the first may end a longer word and the last
   * may begin one, so those are matched against the vocabulary by suffix and prefix.
   */
  candidates(needle: string): Int32Array | null {
    const tokens = [...needle.matchAll(WORD)].map((m) => {
      const start = m.index;
      return { word: m[0], openLeft: start === 0, openRight: start + m[0].length === needle.length };
    });
    if (tokens.length === 0) return null;
    // Whole words first: a map lookup each, and often selective enough to skip the vocabulary scans.
    tokens.sort((a, b) => Number(a.openLeft || a.openRight) - Number(b.openLeft || b.openRight));
    // Every needle word must be there, so the candidates are the intersection of each word's reviews.
    let result: Int32Array | null = null;
    for (const t of tokens) {
      const open = t.openLeft || t.openRight;
      if (open && result !== null && result.length <= FEW) break;
      const lists = open ? this.partial(t.word, t.openLeft, t.openRight) : [this.postings.get(t.word) ?? new Int32Array(0)];
      const set = this.union(lists);
      result = result === null ? set : intersect(result, set);
      if (result.length === 0) break;
    }
    return result;
  }

  /** Reviews of every vocabulary word that ends with (openLeft), begins with (openRight) or contains (both) `part`. */
  private partial(part: string, openLeft: boolean, openRight: boolean): Int32Array[] {
    const text = this.vocabulary;
    const pattern = `${openLeft ? '' : '\n'}${part}${openRight ? '' : '\n'}`;
    const out: Int32Array[] = [];
    let from = 0;
    for (;;) {
      const hit = text.indexOf(pattern, from);
      if (hit === -1) return out;
      const at = openLeft ? hit : hit + 1;
      const start = text.lastIndexOf('\n', at) + 1;
      const end = text.indexOf('\n', at + part.length);
      out.push(this.postings.get(text.slice(start, end))!);
      // The next word starts after this one's newline; a prefix pattern needs that newline.
      from = end;
    }
  }

  private union(lists: Int32Array[]): Int32Array {
    if (lists.length === 1) return lists[0]!;
    const size = lists.reduce((s, l) => s + l.length, 0);
    const n = this.lowerText.length;
    if (size * 16 < n) {
      // Few positions: concatenate and sort; duplicates are harmless to callers but cheap to drop.
      const all = new Int32Array(size);
      let k = 0;
      for (const l of lists) all.set(l, (k += l.length) - l.length);
      all.sort();
      let w = 0;
      for (let i = 0; i < all.length; i++) if (i === 0 || all[i] !== all[i - 1]) all[w++] = all[i]!;
      return all.subarray(0, w);
    }
    const mark = new Uint8Array(n);
    let count = 0;
    for (const l of lists) {
      for (const i of l) {
        count += 1 - mark[i]!;
        mark[i] = 1;
      }
    }
    const out = new Int32Array(count);
    for (let i = 0, w = 0; i < n; i++) if (mark[i] === 1) out[w++] = i;
    return out;
  }
}

/** Positions in both ascending lists. */
function intersect(a: Int32Array, b: Int32Array): Int32Array {
  const out = new Int32Array(Math.min(a.length, b.length));
  let i = 0;
  let j = 0;
  let k = 0;
  while (i < a.length && j < b.length) {
    if (a[i]! < b[j]!) i++;
    else if (a[i]! > b[j]!) j++;
    else {
      out[k++] = a[i]!;
      i++;
      j++;
    }
  }
  return out.subarray(0, k);
}
