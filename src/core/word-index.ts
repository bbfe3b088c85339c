/** A word: a maximal run of letters and digits. Text and needle are split the same way. */
const WORD = /[\p{L}\p{N}]+/gu;

/** One letter or digit (a code point); `WORD` is runs of these. */
const WORD_CHAR = /^[\p{L}\p{N}]$/u;

/** Whether each ASCII code is a letter or digit. */
const ASCII_WORD = Uint8Array.from({ length: 128 }, (_, c) => Number(WORD_CHAR.test(String.fromCharCode(c))));

/** Non-ASCII code points seen, and whether each is a letter or digit: reviews use few of them. */
const otherWordChars = new Map<number, boolean>();

function isWordCodePoint(cp: number): boolean {
  if (cp < 128) return ASCII_WORD[cp] === 1;
  let word = otherWordChars.get(cp);
  if (word === undefined) {
    word = WORD_CHAR.test(String.fromCodePoint(cp));
    if (otherWordChars.size < 65_536) otherWordChars.set(cp, word);
  }
  return word;
}

/**
 * Calls `each` with every word of `text`, as `text.matchAll(WORD)` finds them, without a match
 * object per word: building the index at 100k reviews spent most of its time making those.
 */
function forEachWord(text: string, each: (word: string) => void): void {
  let start = -1;
  for (let i = 0; i < text.length; ) {
    const cp = text.codePointAt(i)!;
    const width = cp > 0xffff ? 2 : 1;
    if (isWordCodePoint(cp)) {
      if (start < 0) start = i;
    } else if (start >= 0) {
      each(text.slice(start, i));
      start = -1;
    }
    i += width;
  }
  if (start >= 0) each(text.slice(start));
}

/** Whether a (lower-cased) needle is one word and nothing else: then the reviews the index gives for it are exactly those containing it. */
export function isOneWord(needle: string): boolean {
  return ONE_WORD.test(needle);
}

const ONE_WORD = /^[\p{L}\p{N}]+$/u;

/** Below this many candidates from whole-word lookups, scanning the vocabulary for partial words is not worth it. */
const FEW = 256;

/**
 * An inverted index from each distinct word of the (lower-cased) review texts to the ascending
 * positions of the reviews containing it. It narrows a substring search to candidate reviews;
 * the caller still checks each candidate, so the index only has to never miss one.
 */
export class WordIndex {
  /** Every distinct word between newlines: one indexOf scan finds the words containing a part. */
  private readonly vocabulary: string;
  /** Where each word's positions start in `numbers` (and, at the word after the last, where they end). */
  private readonly starts: Int32Array;

  /**
   * `words`: each distinct word and its number, in order; `numbers`: each word's count of
   * positions, then every word's positions in turn (as toBytes keeps them). Views of one array,
   * made per lookup, rather than an array object per word (83k of them at 100k reviews).
   */
  private constructor(
    /** How many reviews it indexes. */
    private readonly reviews: number,
    private readonly words: Map<string, number>,
    private readonly numbers: Int32Array,
  ) {
    this.vocabulary = `\n${[...words.keys()].join('\n')}\n`;
    const n = words.size;
    this.starts = new Int32Array(n + 1);
    this.starts[0] = n;
    for (let w = 0; w < n; w++) this.starts[w + 1] = this.starts[w]! + numbers[w]!;
  }

  /** Ascending positions of the reviews with this word. */
  private postings(word: string): Int32Array | undefined {
    const w = this.words.get(word);
    return w === undefined ? undefined : this.numbers.subarray(this.starts[w], this.starts[w + 1]);
  }

  /** Built at once from the review texts (lower-cased a text at a time, none kept), on the caller's turn of the event loop. */
  static build(texts: readonly (string | null)[]): WordIndex {
    const steps = WordIndex.steps(texts, texts.length);
    for (let step = steps.next(); ; step = steps.next()) if (step.done) return step.value;
  }

  /** Built `chunk` reviews at a time, awaiting `pause` between chunks so the caller's event loop stays free. */
  static async make(texts: readonly (string | null)[], pause: () => Promise<void>, chunk: number): Promise<WordIndex> {
    const steps = WordIndex.steps(texts, chunk);
    for (let step = steps.next(); ; step = steps.next()) {
      if (step.done) return step.value;
      await pause();
    }
  }

  private static *steps(texts: readonly (string | null)[], chunk: number): Generator<void, WordIndex> {
    const lists = new Map<string, number[]>();
    for (let i = 0; i < texts.length; i++) {
      forEachWord((texts[i] ?? '').toLowerCase(), (word) => {
        let list = lists.get(word);
        if (list === undefined) lists.set(word, (list = []));
        // Positions arrive in order, so a repeat of the word in this review is the last entry.
        if (list[list.length - 1] !== i) list.push(i);
      });
      if (i % chunk === chunk - 1) yield;
    }
    let total = 0;
    for (const list of lists.values()) total += list.length;
    const words = new Map<string, number>();
    const numbers = new Int32Array(lists.size + total);
    let at = lists.size;
    for (const [word, list] of lists) {
      numbers[words.size] = list.length;
      words.set(word, words.size);
      numbers.set(list, at);
      at += list.length;
    }
    return new WordIndex(texts.length, words, numbers);
  }

  /**
   * The index as bytes, to keep with its revision: how many reviews, words and positions, the
   * vocabulary (UTF-8, one word per line, padded to 4 bytes), each word's count of positions and
   * every word's positions in turn. fromBytes reads it back.
   */
  toBytes(): Buffer {
    const vocabulary = Buffer.from([...this.words.keys()].join('\n'));
    const padded = Math.ceil(vocabulary.length / 4) * 4;
    const words = this.words.size;
    const total = this.numbers.length - words;
    const out = Buffer.alloc(16 + padded + 4 * (words + total));
    out.writeUInt32LE(this.reviews, 0);
    out.writeUInt32LE(words, 4);
    out.writeUInt32LE(total, 8);
    out.writeUInt32LE(vocabulary.length, 12);
    vocabulary.copy(out, 16);
    new Int32Array(out.buffer, out.byteOffset + 16 + padded, words + total).set(this.numbers);
    return out;
  }

  /** An index read from toBytes() of the same texts, or null when the bytes do not describe `count` reviews whole. */
  static fromBytes(bytes: Uint8Array, count: number): WordIndex | null {
    if (bytes.length < 16) return null;
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const [reviews, words, total, vocabularyBytes] = [0, 4, 8, 12].map((at) => view.getUint32(at, true)) as [number, number, number, number];
    const padded = Math.ceil(vocabularyBytes / 4) * 4;
    if (reviews !== count || bytes.length !== 16 + padded + 4 * (words + total)) return null;
    const vocabulary = new TextDecoder().decode(bytes.subarray(16, 16 + vocabularyBytes));
    const list = words === 0 ? [] : vocabulary.split('\n');
    if (list.length !== words) return null;
    // Copied once, so the positions are aligned whatever the offset of the bytes given.
    const numbers = new Int32Array(words + total);
    new Uint8Array(numbers.buffer).set(bytes.subarray(16 + padded));
    const ids = new Map<string, number>();
    let at = words;
    for (let w = 0; w < words; w++) {
      const count = numbers[w]!;
      if (count <= 0 || at + count > numbers.length) return null;
      ids.set(list[w]!, w);
      at += count;
    }
    return at === numbers.length && ids.size === words ? new WordIndex(count, ids, numbers) : null;
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
      const lists = open ? this.partial(t.word, t.openLeft, t.openRight) : [this.postings(t.word) ?? new Int32Array(0)];
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
      out.push(this.postings(text.slice(start, end))!);
      // The next word starts after this one's newline; a prefix pattern needs that newline.
      from = end;
    }
  }

  private union(lists: Int32Array[]): Int32Array {
    if (lists.length === 1) return lists[0]!;
    const size = lists.reduce((s, l) => s + l.length, 0);
    const n = this.reviews;
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
