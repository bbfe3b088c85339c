/** One review analysed for the insights: its aspect judgements and phrases, the entities it names, its topic phrases and pull-quote candidate; kept between revisions. */
import type { Business } from '../schema/business.js';
import type { AspectEvidence, PerReview } from '../schema/insights.js';
import type { Review } from '../schema/review.js';
import { AspectAnalyser, MODEL_METHOD, polarityOf, type AspectHit, type Polarity, type SentenceAnalysis } from './analyser.js';
import type { AspectModel } from './model.js';
import measured from './measured.json' with { type: 'json' };
import { entityMatchers, technicianNameFinder, type EntityMatchers } from './entities.js';
import { TAXONOMY_VERSION } from './taxonomy.js';
import { DOMAIN_LEXICON, GENERAL_LEXICON, NEGATORS } from './lexicon.js';
import { PhraseMatcher } from './matcher.js';
import { phrasePieces, tokenize, wordRuns } from './text.js';
import { topicPhrasesOf, topicWords, type TopicWords } from './themes.js';

/** Bumped whenever the analysis of a given text can change (model, lexicon, rules). */
export const ANALYSER_VERSION = '2.10.0';

/** Figures `npm run eval:insights -- --record` last measured on the blind dev set, or null where it was absent. */
const dev = (measured as { dev: { aspect_f1: number; polarity_accuracy: number; review_polarity: number } | null }).dev;
export const MODEL_NAME = `reviewcast-absa ${ANALYSER_VERSION}: ${MODEL_METHOD}; taxonomy v${TAXONOMY_VERSION}; local and deterministic. ${
  dev ? `On a blind-labelled dev set: aspect F1 ${dev.aspect_f1}, aspect polarity accuracy ${dev.polarity_accuracy}, review polarity accuracy ${dev.review_polarity}.` : 'Not measured on the blind dev set.'
}`;

/** This review's best sentence for the pull quote, and how good it is. */
export interface QuoteCandidate {
  text: string;
  score: number;
}

/**
 * Kept for every review between revisions (so only changed reviews are analysed again), which
 * makes its size the insights' memory: only what later passes read is kept, and arrays that are
 * usually empty are the shared EMPTY.
 */
export interface ReviewAnalysis {
  per: PerReview;
  /** Sentences with at least one aspect, kept only when `candidates` is not empty: the unlisted-technician pass reads them. */
  sentences: readonly SentenceAnalysis[];
  /** Names in a technician's role that are not on the roster. */
  candidates: readonly string[];
  /** Judging phrases of the sentences naming each technician, service or problem ("t:Al", "s:ac_repair", "p:leak"). */
  entityPhrases: readonly (readonly [key: string, phrases: readonly string[]])[];
  /** The topic phrases the review uses (themes.ts). */
  topicPhrases: readonly string[];
  /** Null unless the review may give the pull quote (4+ stars, positive) and has a sentence fit for it. */
  quote: QuoteCandidate | null;
  /** The service areas the text names: kept, so a revision's build does not scan every text again. */
  areas: readonly string[];
}

const EMPTY: readonly never[] = Object.freeze([]);

/** A per-review aspect judgement (PerReview's). */
type Judgement = PerReview['aspects'][number];
/**
 * What one analyser holds for sharing (intern(), judgement()), in bytes as estimated by
 * sharedBytes: each map is emptied when over its budget, so it stays bounded whatever the reviews
 * say (a revision's analyser lives as long as its snapshot, and MCP get_review analyses through it).
 * 100,000 varied reviews (bench:insights --sentences) hold about 2.0 MiB of strings and 1.8 MiB of judgements by this estimate.
 */
export const SHARING_BYTES: Readonly<{ strings: number; judgements: number }> = Object.freeze({ strings: 4 * 2 ** 20, judgements: 8 * 2 ** 20 });
/** A string's bytes held by a map entry: two a character (V8 keeps some as one) and the entry's and header's overhead. */
const sharedBytes = (s: string) => 2 * s.length + 64;

/** The judging phrases an analysis holds for an entity key. */
export function entityPhrasesOf(a: ReviewAnalysis, key: string): readonly string[] {
  return a.entityPhrases.find(([k]) => k === key)?.[1] ?? EMPTY;
}

/**
 * The sentence a pull quote may take from a review: 40-220 characters, praising at least one
 * aspect and faulting none; more aspects praised and a stronger sentence win, the first on ties.
 */
function bestQuote(sentences: readonly SentenceAnalysis[]): QuoteCandidate | null {
  let best: QuoteCandidate | null = null;
  for (const s of sentences) {
    if (s.text.length < 40 || s.text.length > 220) continue;
    if (s.aspects.some((h) => h.polarity === 'negative') || !s.aspects.some((h) => h.polarity === 'positive')) continue;
    const score = s.aspects.filter((h) => h.polarity === 'positive').length * 2 + Math.min(s.score, 4);
    if (!best || score > best.score) best = { text: s.text, score };
  }
  return best;
}

let judging: PhraseMatcher | null = null;

/**
 * Of the pieces of a cut phrase, those that judge: "the tech was great, the job got done" gives
 * "great" and "the job", and "the job" only names what "great" judged. The pieces the lexicon
 * reads a judgement in (its polar phrases); all of them when it reads none (an operator's own
 * phrases are not in it).
 */
function judgingPieces(pieces: string[]): string[] {
  if (pieces.length < 2) return pieces;
  judging ??= new PhraseMatcher([...DOMAIN_LEXICON, ...GENERAL_LEXICON].filter((e) => e[1] !== 0), NEGATORS);
  const judged = pieces.filter((p) => judging!.scan(tokenize(p)).length > 0);
  return judged.length ? judged : pieces;
}

/**
 * A sentence's quoted phrases cut where its punctuation and quotes cut them (phrasePieces): the
 * analyser reads words, so "great job" and "fast" in 'Great job, "fast" too' come to it as one run.
 * The same object when no phrase of several words crosses a mark.
 */
function withinMarks(s: SentenceAnalysis, runs: readonly (readonly string[])[]): SentenceAnalysis {
  // One run: no mark inside the sentence for a phrase to cross.
  if (runs.length < 2) return s;
  let aspects: AspectHit[] | null = null;
  for (let i = 0; i < s.aspects.length; i++) {
    const h = s.aspects[i]!;
    if (!h.phrases.some(hasSpace)) continue;
    const cut: string[] = [];
    for (const p of h.phrases) {
      if (hasSpace(p)) cut.push(...judgingPieces(phrasePieces(p, runs)));
      else cut.push(p);
    }
    const phrases = [...new Set(cut)];
    if (sameStrings(phrases, h.phrases)) continue;
    aspects ??= s.aspects.slice();
    aspects[i] = { ...h, phrases };
  }
  return aspects ? { ...s, aspects } : s;
}

const hasSpace = (p: string) => p.includes(' ');

/**
 * The array frozen, or the shared empty one: most reviews name no technician, service or
 * problem. Kept analyses are read-only (PerReview's type), and frozen so a write throws, not spreads.
 */
const orNone = <T>(xs: T[]): readonly T[] => (xs.length ? Object.freeze(xs) : EMPTY);

/** The phrases of the hits on the side of `polarity`, each once, in the order they come. */
function agreeingPhrases(hits: readonly AspectHit[], polarity: Polarity): string[] {
  const out: string[] = [];
  for (const h of hits) if (h.polarity === polarity) for (const p of h.phrases) if (!out.includes(p)) out.push(p);
  return out;
}

function sameStrings(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** The aspect analyser's reading of one review's text. */
type Reading = ReturnType<AspectAnalyser['review']>;

/** Analysis of single reviews for one business profile; `key` changes when the profile changes what is found. */
export class ReviewAnalyser {
  readonly analyser: AspectAnalyser;
  readonly matchers: EntityMatchers;
  readonly key: string;
  private readonly candidateNames: (text: string) => string[];
  private readonly topicWords: TopicWords;
  /** One string per distinct phrase, key and topic phrase in kept analyses: reviews repeat them endlessly. */
  private readonly strings = new Map<string, string>();
  /**
   * One frozen object per distinct judgement (aspect, polarity, phrases) in kept analyses: most
   * carry no phrase or one common one ("on time"), and there are four per review (18 MiB at 100k).
   */
  private readonly judgements = new Map<string, Judgement>();
  /** The judgements that quote no phrase, per aspect and polarity (in the judgements' budget). */
  private readonly bare = new Map<string, Partial<Record<Polarity, Judgement>>>();
  /** Estimated bytes of `strings` and `judgements` (SHARING_BYTES bounds them). */
  private stringBytes = 0;
  private judgementBytes = 0;

  constructor(
    readonly business: Business,
    model?: AspectModel,
    private readonly budget = SHARING_BYTES,
  ) {
    this.analyser = new AspectAnalyser(business.custom_aspects ?? [], model);
    this.matchers = entityMatchers(business);
    this.candidateNames = technicianNameFinder(business);
    this.topicWords = topicWords(business);
    this.key = JSON.stringify([ANALYSER_VERSION, business.technicians, business.services, business.service_areas, business.custom_aspects ?? [], business.name]);
  }

  private intern(s: string): string {
    const known = this.strings.get(s);
    if (known !== undefined) return known;
    const bytes = sharedBytes(s);
    if (this.stringBytes + bytes > this.budget.strings) {
      this.strings.clear();
      this.stringBytes = 0;
    }
    this.strings.set(s, s);
    this.stringBytes += bytes;
    return s;
  }

  private judgement(aspect: string, polarity: Polarity, phrases: readonly string[]): Judgement {
    // Most judgements quote nothing: those are found by aspect and polarity, with no key string made.
    if (phrases.length === 0) {
      let byPolarity = this.bare.get(aspect);
      if (byPolarity === undefined) {
        // Counted in the judgements' budget like the others (an operator may add any number of aspects).
        const bytes = sharedBytes(aspect) + 3 * 96;
        if (this.judgementBytes + bytes > this.budget.judgements) this.forgetJudgements();
        this.bare.set(aspect, (byPolarity = {}));
        this.judgementBytes += bytes;
      }
      return (byPolarity[polarity] ??= Object.freeze({ aspect, polarity, phrases: EMPTY }));
    }
    const key = `${aspect}\n${polarity}\n${phrases.join('\n')}`;
    const known = this.judgements.get(key);
    if (known !== undefined) return known;
    // The key, the frozen object and its array, and its phrases: `strings` may let go of them first, the judgement holds them still.
    const bytes = sharedBytes(key) + 96 + phrases.reduce((n, p) => n + 8 + sharedBytes(p), 0);
    if (this.judgementBytes + bytes > this.budget.judgements) this.forgetJudgements();
    const made = Object.freeze({ aspect, polarity, phrases: orNone(phrases.map((p) => this.intern(p))) });
    this.judgements.set(key, made);
    this.judgementBytes += bytes;
    return made;
  }

  private forgetJudgements(): void {
    this.judgements.clear();
    this.bare.clear();
    this.judgementBytes = 0;
  }

  /** What is held for sharing: entries and estimated bytes of the strings and the judgements. */
  get shared(): { strings: number; stringBytes: number; judgements: number; judgementBytes: number } {
    return { strings: this.strings.size, stringBytes: this.stringBytes, judgements: this.judgements.size, judgementBytes: this.judgementBytes };
  }

  /**
   * A review's analysis and the sentences behind its aspect judgements, from one reading of its
   * text: worked out again on demand (the analysis is deterministic, so this is what the insights
   * document counted) rather than kept for every review.
   */
  withEvidence(r: Review): { per: PerReview; evidence: AspectEvidence[] } {
    const read = this.read(r);
    const evidence = (read?.sentences ?? []).flatMap((s) => s.aspects.map((a) => ({ sentence: s.text, aspect: a.aspect, polarity: a.polarity })));
    return { per: this.analyse(r, read).per, evidence };
  }

  /** The aspect analyser's reading of the review's text; null for a rating-only review. */
  private read(r: Review): Reading | null {
    return r.text ? this.analyser.review(r.text, r.rating) : null;
  }

  /** `read`: the analyser's reading of the review's text, when the caller has made it already. */
  analyse(r: Review, read = this.read(r)): ReviewAnalysis {
    const text = r.text ?? '';
    // Each sentence's runs of words between marks, for its phrases and its topics.
    const runs = (read?.sentences ?? []).map((s) => wordRuns(s.text));
    const sentences = (read?.sentences ?? []).map((s, i) => withinMarks(s, runs[i]!));
    const byAspect = new Map<string, { score: number; polarity: Polarity; hits: AspectHit[] }>();
    for (const s of sentences) {
      for (const a of s.aspects) {
        const e = byAspect.get(a.aspect);
        if (!e) byAspect.set(a.aspect, { score: a.score, polarity: a.polarity, hits: [a] });
        else {
          // Sentences that agree keep their verdict; sentences that disagree are weighed.
          e.score += a.score;
          if (e.polarity !== a.polarity) e.polarity = polarityOf(e.score);
          e.hits.push(a);
        }
      }
    }
    // The whole text and the stars together, as a reader weighs them; stars alone when there are no words.
    const overall = read && read.sentences.length > 0 ? read.overall : null;
    const score = overall ? overall.score : (r.rating - 3) / 2;
    const per: PerReview = Object.freeze({
      sentiment: overall ? overall.polarity : polarityOf(score),
      score,
      basis: overall ? 'text' : 'rating',
      // The phrases of the sentences that agree with the review's verdict on the aspect: praise quoted
      // for a complaint ("ignored my calls" as communication praise) would say the opposite of the verdict.
      aspects: orNone([...byAspect].map(([aspect, e]) => this.judgement(aspect, e.polarity, agreeingPhrases(e.hits, e.polarity)))),
      technicians: text ? orNone(this.matchers.technicians.filter((t) => t.re.test(text)).map((t) => t.name)) : EMPTY,
      services: text ? orNone(this.matchers.services.filter((s) => s.re.test(text)).map((s) => s.id)) : EMPTY,
      problems: text ? orNone(this.matchers.problems.filter((p) => p.re.test(text)).map((p) => p.id)) : EMPTY,
    });
    const entityPhrases: [string, string[]][] = [];
    const named: [string, RegExp][] = [
      ...this.matchers.technicians.filter((t) => per.technicians.includes(t.name)).map((t): [string, RegExp] => [`t:${t.name}`, t.re]),
      ...this.matchers.services.filter((x) => per.services.includes(x.id)).map((x): [string, RegExp] => [`s:${x.id}`, x.re]),
      ...this.matchers.problems.filter((x) => per.problems.includes(x.id)).map((x): [string, RegExp] => [`p:${x.id}`, x.re]),
    ];
    for (const [key, re] of named) {
      const phrases: string[] = [];
      for (const s of sentences) if (re.test(s.text)) for (const h of s.aspects) if (h.polarity !== 'neutral') for (const p of h.phrases) phrases.push(this.intern(p));
      entityPhrases.push([this.intern(key), phrases]);
    }
    const candidates = text ? this.candidateNames(text) : EMPTY;
    const topicPhrases = topicPhrasesOf(runs, this.topicWords).map((b) => this.intern(b));
    const areas = text ? [...new Set(this.matchers.areas.filter((a) => a.re.test(text)).map((a) => a.name))] : EMPTY;
    return {
      per,
      sentences: candidates.length ? sentences.filter((s) => s.aspects.length > 0) : EMPTY,
      candidates: candidates.length ? candidates : EMPTY,
      entityPhrases: entityPhrases.length ? entityPhrases : EMPTY,
      topicPhrases: topicPhrases.length ? topicPhrases : EMPTY,
      quote: r.rating >= 4 && per.sentiment === 'positive' ? bestQuote(sentences) : null,
      areas: areas.length ? areas : EMPTY,
    };
  }
}

/**
 * Keeps each review's analysis between revisions: only reviews whose text or rating changed
 * (or all of them, when the business profile changed what is looked for) are analysed again.
 */
export class AnalysisCache {
  // Rating and text are compared as they are: a joined fingerprint would be a second copy of every text.
  private entries = new Map<string, { rating: number; text: string | null; analysis: ReviewAnalysis }>();
  private key = '';
  hits = 0;
  misses = 0;

  get(analyser: ReviewAnalyser, r: Review): ReviewAnalysis {
    if (analyser.key !== this.key) {
      this.entries = new Map();
      this.key = analyser.key;
    }
    const hit = this.entries.get(r.id);
    if (hit && hit.rating === r.rating && hit.text === r.text) {
      this.hits++;
      return hit.analysis;
    }
    this.misses++;
    const analysis = analyser.analyse(r);
    this.entries.set(r.id, { rating: r.rating, text: r.text, analysis });
    return analysis;
  }

  /** Forgets reviews that are gone. */
  retain(ids: ReadonlySet<string>): void {
    for (const id of this.entries.keys()) if (!ids.has(id)) this.entries.delete(id);
  }
}
