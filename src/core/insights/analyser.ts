/** The aspect analyser: the trained model's verdicts per sentence, with the lexicon's phrases, operator aspects and rules of scope. */
import { DOMAIN_LEXICON, GENERAL_LEXICON, INTENSIFIERS, NEGATORS, type LexEntry } from './lexicon.js';
import { PhraseMatcher, type Pattern } from './matcher.js';
import { AspectModel, Rows, type Clause, type Reading } from './model.js';
export { MODEL_METHOD } from './model.js';
import { BUILTIN_ASPECTS, CONDUCT_ASPECT, STAFF_ASPECT, type AspectDef } from './taxonomy.js';
import { featuresOf, type Pairs } from './features.js';
import { readablePhrase, splitClauses, splitSentences, startsAnother, tokenizeMarked } from './text.js';

export type Polarity = 'positive' | 'neutral' | 'negative';

export interface AspectHit {
  aspect: string;
  polarity: Polarity;
  score: number;
  /** The words that carried the judgement (or the mention), for top_phrases. */
  phrases: string[];
}

export interface SentenceAnalysis {
  text: string;
  score: number;
  aspects: AspectHit[];
}

/** Negation flips and damps, as in VADER: "not great" is mildly bad, not terrible. */
const NEGATION_FACTOR = -0.75;
const NEGATION_WINDOW = 3;
const EPSILON = 0.05;
/** A lexicon score this strong is a clear verdict (one plain judging word). */
const LEXICON_CLEAR = 1;

interface Item {
  value: number;
  aspect: string | null;
  phrase: string;
  negated: boolean;
  /** The run of words between marks it stands in. */
  run: number;
  /** Its first token in the clause. */
  start: number;
}

/** The lexicon's reading of a sentence: its clauses', and for the whole, the score and per aspect its score and phrases. */
interface Lexical {
  text: string;
  texts: readonly string[];
  results: readonly ClauseResult[];
  score: number;
  /**
   * Per aspect its score and the phrases that carried it, found from token `at` on (the start of the clause they came from);
   * `answered`: the place of a later clause that names no aspect and turned the verdict ("Pricey, but great").
   */
  aspects: Map<string, { score: number; phrases: string[]; at: number; answered?: number }>;
  tokens: readonly string[];
  /** Per token, a mark or a clause's start before it (tokenizeMarked). */
  breaks: Uint8Array;
  /** Per token, 1 where a clause other than the first starts; absent for a sentence of one clause. */
  starts?: Uint8Array;
}

interface ClauseResult {
  score: number;
  /** The judging phrases matched that lean the way the clause does, in order ("great", "not on time"). */
  judging: string[];
  aspects: Map<string, { score: number; polar: boolean; mixed: boolean; phrases: string[] }>;
  /** The lexicon patterns matched (each a model feature, "P:on time"). */
  patterns: readonly Pattern[];
  tokens: string[];
  breaks: Uint8Array;
}

/** What the model reads of a sentence, and (worked out only when asked) of each of its clauses. */
class SentenceView {
  constructor(
    readonly text: string,
    readonly features: string[],
    private readonly texts: readonly string[],
    private readonly results: readonly ClauseResult[],
    private readonly pairs: Pairs | null,
  ) {}

  clauses(): { text: string; features: string[] }[] {
    if (this.results.length === 1) return [{ text: this.text, features: this.features }];
    return this.results.map((c, i) => ({ text: this.texts[i]!, features: lexiconFeatures(featuresOf(this.texts[i]!, c.tokens, c.breaks, false, this.pairs), c.patterns, c.aspects, c.score) }));
  }
}

/** The model's reading of a sentence from its rows; its clauses' rows are found only when asked. */
class RowsReading implements Reading {
  readonly judged: number;

  constructor(
    private readonly analyser: AspectAnalyser,
    private readonly r: Lexical,
    readonly rows: Rows,
  ) {
    this.judged = analyser.rowsOf(rows, r.text, r.tokens, r.breaks, r.results, r.aspects, r.score);
  }

  clauses(): readonly Clause[] {
    const { r } = this;
    if (r.results.length === 1) return [{ text: r.text, rows: this.rows }];
    return r.results.map((c, i) => {
      const rows = new Rows();
      this.analyser.rowsOf(rows, r.texts[i]!, c.tokens, c.breaks, [c], c.aspects, c.score);
      return { text: r.texts[i]!, rows };
    });
  }
}

/** Opening a sentence: whoever was called and why ("We booked them after", "Called Northwind because"). */
const CONTACTED = /^(?:so\s+|then\s+)?(?:(?:we|i)\s+)?(?:called|booked|hired|contacted|phoned|rang|used|chose|picked)\s+(?:them|[\w&'.-]+(?:\s[\w&'.-]+){0,3}?),?\s(?:because(?!\sof\b)|after|when|since)\b(.*)$/i;
/** "Second time using them, this time because ...". */
const THIS_TIME = /(?:^|,\s*)this time because\b(.*)$/i;
/** Or what broke, in the customer's own words ("Our AC died in July.", "My dryer stopped heating."). */
const BROKE = /^(?:[\w'-]+(?:\s+[\w'-]+){0,3},\s*)?(?:our|my)\s+(?:[\w'/-]+\s+){0,4}?(?:stopped|died|quit|broke|failed|burst|backed up|blew|tripped|froze|cracked|clogged|leaked|(?:started|kept|began)\s(?:leaking|making|dripping|running|blowing|throwing|tripping|sparking|flickering|backing|banging|grinding|chirping|losing|shutting|cycling|smoking|buzzing)|(?:was|were)\s(?:leaking|making|dripping|running|blowing|throwing|tripping|sparking|flickering|backing|banging|grinding|chirping)|(?:wouldn't|won't)\s(?:start|drain|heat|cool|turn|stop|spin|flush|light|work))\b/i;
/** Words that bring in the service itself: then the sentence is no longer only the scene. */
const SERVICE = /\b(?:they|them|he|she|his|her|their|tech\w*|plumber|electrician|installer|guy|crew|company|repair\w*|fix\w*|install\w*|visit|again|since|still|later|came|come|sent|quoted|charged|showed|arrived|wait\w*|hours?|minutes?|said|told|replaced|someone|somebody|gave|turned|culprit|found|diagnos\w*|glad|happy|finally|thank\w*|mistake|calling|new|within|cost\w*|price\w*|paid|pay|dollars|bill\w*|charge\w*|quote\w*|estimate\w*|invoice\w*|warranty|appointment\w*|schedul\w*|call|calls|emails?|texts?)\b|\$/i;

/** Whether a sentence only sets the scene: what went wrong, or why they were called, and nothing of the service. */
function setsTheScene(text: string): boolean {
  const contacted = CONTACTED.exec(text) ?? THIS_TIME.exec(text);
  if (contacted) return !SERVICE.test(contacted[1]!);
  return BROKE.test(text) && !SERVICE.test(text);
}

/** Per aspect id, the features of the lexicon's reading of it, made once. */
const READING = new Map<string, { mention: string; strong: string } & Record<Polarity, string>>();
/** A lexicon score this far from 0 is a strong judgement ("way overpriced", two judging phrases): a feature of its own. */
const LEXICON_STRONG = 2;

/** The lexicon's reading as model features: each pattern matched, each aspect judged, how and how strongly (in the model's labels), the overall lean. */
function lexiconFeatures(out: string[], patterns: readonly Pattern[], aspects: ReadonlyMap<string, { score: number }>, score: number): string[] {
  for (const p of patterns) out.push(p.feature);
  for (const [aspect, a] of aspects) {
    let r = READING.get(aspect);
    if (r === undefined) {
      const label = TO_MODEL[aspect] ?? aspect;
      READING.set(aspect, (r = { mention: `R:${label}`, strong: `R:${label}:strong`, positive: `R:${label}:positive`, negative: `R:${label}:negative`, neutral: `R:${label}:neutral` }));
    }
    out.push(r.mention, r[polarityOf(a.score)]);
    if (Math.abs(a.score) >= LEXICON_STRONG) out.push(r.strong);
  }
  if (Math.abs(score) > EPSILON) out.push(score > 0 ? 'R:+' : 'R:-');
  if (Math.abs(score) >= LEXICON_STRONG) out.push(score > 0 ? 'R:++' : 'R:--');
  return out;
}

/** The phrases that read as phrases, made readable (readablePhrase), none running from one clause into the next ("fixed it | the attic": the "but" between them is not in the tokens). */
function readable(phrases: readonly string[], r: Lexical, at: number): string[] {
  const out: string[] = [];
  for (const p of phrases) {
    const q = readablePhrase(p, r.tokens, r.starts, at, r.breaks);
    if (q !== null) out.push(q);
  }
  return out;
}

export function polarityOf(score: number): Polarity {
  return score > EPSILON ? 'positive' : score < -EPSILON ? 'negative' : 'neutral';
}

/** The trained model's aspect labels (the blind corpus's scheme) as taxonomy ids. */
const FROM_MODEL: Record<string, string> = { quality: 'quality_of_work', knowledge: 'technical_knowledge' };
const TO_MODEL: Record<string, string> = { quality_of_work: 'quality', technical_knowledge: 'knowledge', customer_service: 'professionalism' };
/** Words naming the people who answer the phone: conduct there is customer service, not the technician's. */
const STAFF_WORDS = /\b(office|receptionist|dispatcher|dispatch|front desk|customer service|on the phone|manager|staff|scheduler|secretary|call cent(?:er|re))\b/i;

let trained: AspectModel | undefined;
/** The trained model, built from model.json when first needed: a restart that loads its revision's insights never analyses. */
const trainedModel = (): AspectModel => (trained ??= AspectModel.fromFile());

/** Whether no "and" / "or" starting another phrase (startsAnother) stands between tokens `a` and `b`. */
function samePart(tokens: readonly string[], a: number, b: number): boolean {
  for (let k = Math.min(a, b); k < Math.max(a, b); k++) if (startsAnother(tokens, k)) return false;
  return true;
}

/**
 * Sentence-level aspect-based sentiment. The built-in aspects come from the trained model
 * (model.ts); operator-added aspects, and the phrases quoted for every aspect, from phrase
 * lexicons with negation, contrast and intensifiers. Deterministic and local.
 */
export class AspectAnalyser {
  private readonly matcher: PhraseMatcher;
  private readonly custom: ReadonlySet<string>;
  readonly aspects: readonly AspectDef[];

  /** Per aspect id, the rows of the lexicon's reading of it (lexiconFeatures), and its label's index in the model (or -1). */
  private readonly readingRows = new Map<string, Int32Array>();
  /** Rows of "R:+", "R:-", "R:++", "R:--". */
  private readonly leanRows: Int32Array;
  /** Per lexicon pattern (by id), its feature's row: found once, not per match. */
  private readonly patternRows: Int32Array;

  /**
   * `model`: another trained model (cross-validation trains and scores its own). `bySums`: false
   * reads the model through feature strings, as training does: the reference the sums are tested against.
   */
  constructor(
    extraAspects: readonly AspectDef[] = [],
    private readonly model: AspectModel = trainedModel(),
    private readonly bySums = true,
  ) {
    this.leanRows = Int32Array.from(['R:+', 'R:-', 'R:++', 'R:--'], (f) => model.row(f));
    this.aspects = [...BUILTIN_ASPECTS, ...extraAspects.filter((a) => !BUILTIN_ASPECTS.some((b) => b.id === a.id))];
    this.custom = new Set(this.aspects.filter((a) => !BUILTIN_ASPECTS.includes(a)).map((a) => a.id));
    const cues: LexEntry[] = this.aspects.flatMap((a) => a.cues.map((c): LexEntry => [c.toLowerCase(), 0, a.id]));
    const extraPolar = this.aspects.flatMap((a) => [
      ...(a.positive ?? []).map((p): LexEntry => [p.toLowerCase(), 1.5, a.id]),
      ...(a.negative ?? []).map((p): LexEntry => [p.toLowerCase(), -1.5, a.id]),
    ]);
    this.matcher = new PhraseMatcher([...DOMAIN_LEXICON, ...GENERAL_LEXICON, ...cues, ...extraPolar], NEGATORS);
    this.patternRows = Int32Array.from(this.matcher.patterns, (p) => model.row(p.feature));
  }

  /** Scratch for one clause's reading (per token: inside a match; which run between marks), reused rather than made per clause. */
  private inMatch = new Uint8Array(64);
  private runs = new Uint16Array(64);

  private clause(clause: string): ClauseResult {
    const { tokens, breaks } = tokenizeMarked(clause);
    const matches = this.matcher.scan(tokens);
    // Nothing of the lexicon in it (a good share of clauses): none of the bookkeeping below.
    if (matches.length === 0) return { score: 0, judging: [], aspects: new Map(), patterns: [], tokens, breaks };
    if (this.inMatch.length < tokens.length) {
      this.inMatch = new Uint8Array(2 * tokens.length);
      this.runs = new Uint16Array(2 * tokens.length);
    }
    const { inMatch, runs } = this;
    inMatch.fill(0, 0, tokens.length);
    for (const m of matches) inMatch.fill(1, m.start, m.end);
    const items: Item[] = [];
    const mentioned = new Map<string, string[]>();
    /** Per aspect, the runs between marks that mention it. */
    const runsOf = new Map<string, Set<number>>();
    runs[0] = 0;
    for (let i = 1; i < tokens.length; i++) runs[i] = runs[i - 1]! + breaks[i]!;
    /** Per aspect, where its first mention starts. */
    const firstAt = new Map<string, number>();
    for (const m of matches) {
      // Most matches are one word: that word, with no array made to join.
      const phrase = m.end - m.start === 1 ? tokens[m.start]! : tokens.slice(m.start, m.end).join(' ');
      const run = runs[m.start]!;
      if (m.pattern.aspect) {
        const list = mentioned.get(m.pattern.aspect) ?? [];
        if (list.length === 0) firstAt.set(m.pattern.aspect, m.start);
        list.push(phrase);
        mentioned.set(m.pattern.aspect, list);
        const at = runsOf.get(m.pattern.aspect) ?? new Set<number>();
        at.add(run);
        runsOf.set(m.pattern.aspect, at);
      }
      if (m.pattern.polarity === 0) continue;
      let value = m.pattern.polarity;
      let negated = false;
      if (!m.pattern.fixed) {
        for (let j = m.start - 1; j >= Math.max(0, m.start - NEGATION_WINDOW); j--) {
          // A negator governs the nearest judgement only: another phrase or a mark in between ends its reach.
          if (inMatch[j] || breaks[j + 1]) break;
          if (NEGATORS.has(tokens[j]!)) {
            value *= NEGATION_FACTOR;
            negated = true;
            break;
          }
        }
      }
      for (let j = m.start - 1; j >= Math.max(0, m.start - 2); j--) {
        const boost = inMatch[j] ? undefined : INTENSIFIERS.get(tokens[j]!);
        if (boost !== undefined) {
          value *= boost;
          break;
        }
      }
      items.push({ value, aspect: m.pattern.aspect, phrase: negated ? `not ${phrase}` : phrase, negated, run, start: m.start });
    }
    // "The office staff were rude": conduct words describe the staff named, not the technician.
    if (mentioned.has(STAFF_ASPECT)) {
      for (const it of items) if (it.aspect === CONDUCT_ASPECT) it.aspect = STAFF_ASPECT;
      mentioned.delete(CONDUCT_ASPECT);
      for (const r of runsOf.get(CONDUCT_ASPECT) ?? []) runsOf.get(STAFF_ASPECT)!.add(r);
      runsOf.delete(CONDUCT_ASPECT);
    }
    // A general word judges the aspects named between the same marks ("Great repair, the bill was $400": not the bill); with none there, every aspect the clause names.
    const general = items.filter((i) => i.aspect === null);
    const named = new Set<number>();
    for (const r of runsOf.values()) for (const run of r) named.add(run);
    const aspects: ClauseResult['aspects'] = new Map();
    for (const [aspect, mentions] of mentioned) {
      const own = items.filter((i) => i.aspect === aspect);
      const at = runsOf.get(aspect)!;
      const basis = own.length > 0 ? own : general.filter((g) => at.has(g.run) || !named.has(g.run));
      const score = basis.reduce((s, i) => s + i.value, 0);
      const mixed = basis.some((i) => i.value > 0) && basis.some((i) => i.value < 0);
      // Judged by general words: quote them with the mention, in text order ("great job"); those with no
      // "and the", "and they" ... between them and the mention when there are any ("quick and the price was fair" quotes "price was fair").
      const near = own.length ? [] : basis.filter((g) => samePart(tokens, g.start, firstAt.get(aspect)!));
      const quoted = near.length ? near : basis;
      const phrases = own.length ? own.map((i) => i.phrase) : quoted.length ? [[...quoted.map((g) => g.phrase), mentions[0]!].sort((a, b) => clause.toLowerCase().indexOf(a) - clause.toLowerCase().indexOf(b)).join(' ')] : mentions;
      aspects.set(aspect, { score, polar: basis.length > 0, mixed, phrases });
    }
    // A bare mention ("the bill") next to judged aspects is context, not a finding.
    if ([...aspects.values()].some((a) => a.polar)) {
      for (const [id, a] of aspects) if (!a.polar) aspects.delete(id);
    }
    const score = items.reduce((s, i) => s + i.value, 0);
    return { score, judging: items.filter((i) => Math.sign(i.value) === Math.sign(score)).map((i) => i.phrase), aspects, patterns: matches.map((m) => m.pattern), tokens, breaks };
  }

  /** The lexicon's reading of a sentence: per clause and for the whole, per aspect its score and the phrases that carried it. */
  private read(text: string, rating: number | undefined): Lexical {
    const texts = splitClauses(text);
    const results = texts.map((t) => this.clause(t));
    const merged = new Map<string, { score: number; mixed: boolean; phrases: string[]; at: number; answered?: number }>();
    /** Where the clause read starts in the sentence's tokens (its clauses' tokens in order). */
    let clauseAt = 0;
    let score = 0;
    let previous: string[] = [];
    for (const [i, c] of results.entries()) {
      const at = clauseAt;
      clauseAt += c.tokens.length;
      score += c.score;
      if (c.aspects.size === 0 && previous.length > 0 && Math.abs(c.score) > EPSILON) {
        // "Pricey, but great": a judgement with no aspect of its own answers the clause before; where it
        // turns the verdict its words are quoted ("great", not "pricey"), where it agrees the earlier ones ("late", not "hard").
        for (const id of previous) {
          const before = merged.get(id);
          const agrees = before !== undefined && Math.abs(before.score) > EPSILON && Math.sign(before.score) === Math.sign(c.score);
          merged.set(id, agrees ? { ...before, score: c.score, mixed: false } : { score: c.score, mixed: false, phrases: c.judging, at, answered: i });
        }
        continue;
      }
      for (const [id, a] of c.aspects) {
        const before = merged.get(id);
        // Contrast: the later clause has the last word, unless it says nothing either way.
        if (!before || Math.abs(a.score) > EPSILON) merged.set(id, { score: a.score, mixed: a.mixed, phrases: a.phrases, at });
      }
      if (c.aspects.size > 0) previous = [...c.aspects.keys()];
    }
    const aspects: Lexical['aspects'] = new Map();
    for (const [aspect, a] of merged) {
      let s = a.score;
      if (Math.abs(s) <= EPSILON && a.mixed && rating !== undefined) s = rating >= 4 ? 0.1 : rating <= 2 ? -0.1 : 0;
      aspects.set(aspect, a.answered === undefined ? { score: s, phrases: a.phrases, at: a.at } : { score: s, phrases: a.phrases, at: a.at, answered: a.answered });
    }
    // Each clause is tokenised once; the sentence's words are its clauses' words, a clause's start a break.
    if (results.length === 1) return { text, texts, results, score, aspects, tokens: results[0]!.tokens, breaks: results[0]!.breaks };
    const tokens = results.flatMap((c) => c.tokens);
    const breaks = new Uint8Array(tokens.length);
    const starts = new Uint8Array(tokens.length);
    let at = 0;
    for (const c of results) {
      breaks.set(c.breaks, at);
      if (at > 0 && c.tokens.length > 0) breaks[at] = starts[at] = 1;
      at += c.tokens.length;
    }
    return { text, texts, results, score, aspects, tokens, breaks, starts };
  }

  /** The model's view of a lexical reading as feature strings; `pairs`: only the word pairs the model knows (inference), or all (null, training). */
  private featureView(r: Lexical, pairs: Pairs | null): SentenceView {
    const patterns = r.results.flatMap((c) => c.patterns);
    return new SentenceView(r.text, lexiconFeatures(featuresOf(r.text, r.tokens, r.breaks, r.results.length > 1, pairs), patterns, r.aspects, r.score), r.texts, r.results, pairs);
  }

  /** The model's rows of a sentence or clause (RowsReading), straight from its words and the lexicon's reading: the rows of featureView's strings, none of them made. */
  rowsOf(rows: Rows, text: string, tokens: readonly string[], breaks: Uint8Array, results: readonly ClauseResult[], aspects: ReadonlyMap<string, { score: number }>, score: number): number {
    this.model.addText(rows, text, tokens, breaks, results.length > 1);
    for (const c of results) {
      for (const p of c.patterns) rows.feature(this.patternRows[p.id]!);
    }
    return this.addReading(rows, aspects, score);
  }

  /** Adds the rows of the lexicon's reading (lexiconFeatures' features after the patterns); returns the labels it judges, as bits. */
  private addReading(rows: Rows, aspects: ReadonlyMap<string, { score: number }>, score: number): number {
    let judged = 0;
    for (const [aspect, a] of aspects) {
      let r = this.readingRows.get(aspect);
      if (r === undefined) {
        const label = TO_MODEL[aspect] ?? aspect;
        const features = [`R:${label}`, `R:${label}:positive`, `R:${label}:negative`, `R:${label}:neutral`, `R:${label}:strong`];
        this.readingRows.set(aspect, (r = Int32Array.of(...features.map((f) => this.model.row(f)), this.model.labels.indexOf(label))));
      }
      const polarity = polarityOf(a.score);
      rows.feature(r[0]!);
      rows.feature(r[polarity === 'positive' ? 1 : polarity === 'negative' ? 2 : 3]!);
      if (Math.abs(a.score) >= LEXICON_STRONG) rows.feature(r[4]!);
      if (polarity !== 'neutral' && r[5]! >= 0) judged |= 1 << r[5]!;
    }
    if (Math.abs(score) > EPSILON) rows.feature(this.leanRows[score > 0 ? 0 : 1]!);
    if (Math.abs(score) >= LEXICON_STRONG) rows.feature(this.leanRows[score > 0 ? 2 : 3]!);
    return judged;
  }

  /** The model's view of a text with every feature, for training (inference leaves out pairs the model has no weight for: the same sums). */
  view(text: string): SentenceView {
    return this.featureView(this.read(text, undefined), null);
  }

  /**
   * One sentence: the model says which built-in aspects it judges and how; the lexicon supplies
   * operator-added aspects and the words quoted (only those that agree with the verdict and
   * read as a phrase). `rating` only breaks ties in the lexicon's reading.
   */
  sentence(text: string, rating?: number): SentenceAnalysis {
    return this.judge(text, rating);
  }

  /** `review`: the review's overall logits, which the sentence's are added to. */
  private judge(text: string, rating?: number, review?: Float64Array): SentenceAnalysis {
    const rules = this.read(text, rating);
    const aspects: AspectHit[] = [];
    const reading = this.bySums ? new RowsReading(this, rules, this.model.begin()) : this.model.read(this.featureView(rules, this.model.pairs));
    const hits = this.model.sentence(reading, rating, review);
    // A sentence that tells what went wrong before anyone came ("Our AC died in July.", "Called them because
    // the heat pump was grinding.") judges no aspect of the service, whatever its words lean (the model reads
    // "stopped working" as a verdict on the work); the lexicon reading a judgement in it says otherwise.
    const scene = hits.length > 0 && setsTheScene(text) && ![...rules.aspects.values()].some((a) => Math.abs(a.score) > EPSILON);
    for (const hit of scene ? [] : hits) {
      const aspect = hit.label === CONDUCT_ASPECT && STAFF_WORDS.test(hit.clause) ? STAFF_ASPECT : (FROM_MODEL[hit.label] ?? hit.label);
      const lex = rules.aspects.get(aspect) ?? (aspect === STAFF_ASPECT ? rules.aspects.get(CONDUCT_ASPECT) : undefined);
      let polarity = hit.polarity;
      let score = polarity === 'neutral' ? 0 : hit.score;
      // The model hedges to neutral where its words are few; a clear lexicon verdict on the same aspect decides then,
      // unless that verdict is a later clause's that names no aspect while the model read this one on another clause
      // ("A bit pricey but they did great work": "great" is the work's, not the price's).
      const elsewhere = lex?.answered !== undefined && lex.answered !== hit.clauseAt;
      if (polarity === 'neutral' && lex !== undefined && Math.abs(lex.score) >= LEXICON_CLEAR && !elsewhere) {
        polarity = polarityOf(lex.score);
        score = Math.sign(lex.score) * 0.5;
      }
      const phrases = lex !== undefined && polarityOf(lex.score) === polarity ? readable(lex.phrases, rules, lex.at) : [];
      aspects.push({ aspect, polarity, score, phrases });
    }
    for (const [aspect, a] of rules.aspects) {
      if (this.custom.has(aspect)) aspects.push({ aspect, polarity: polarityOf(a.score), score: a.score, phrases: readable(a.phrases, rules, a.at) });
    }
    return { text, score: rules.score, aspects };
  }

  /** Every sentence of a review text, and the review's overall polarity from its words and stars. */
  review(text: string, rating: number): { sentences: SentenceAnalysis[]; overall: { polarity: Polarity; score: number } } {
    const overall = this.model.reviewStart(rating);
    const sentences = splitSentences(text).map((s) => this.judge(s, rating, overall));
    return { sentences, overall: this.model.reviewPolarity(overall) };
  }

  /** Every sentence of a review text. */
  text(text: string, rating?: number): SentenceAnalysis[] {
    return splitSentences(text).map((s) => this.sentence(s, rating));
  }
}

