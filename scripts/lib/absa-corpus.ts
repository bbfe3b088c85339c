/** Reads labelled review sentences in the blind corpus format: text, stars, overall, aspects ("aspect:polarity;..."). */
import { existsSync, readFileSync } from 'node:fs';

export type Pol = 'positive' | 'negative' | 'neutral';

export interface Row {
  text: string;
  stars: number;
  overall: Pol;
  /** Aspect id (the corpus's nine: quality, knowledge, ...) -> polarity. */
  aspects: Map<string, Pol>;
  /** Written against its stars on purpose (cv:insights `starless=`): trains detection and aspect polarity without the stars, and not the review's polarity. */
  starless?: boolean;
  /** Learnt this many times over (the guided writers' rows: GUIDED_WEIGHT); counted once towards a feature's minCount. */
  weight?: number;
}

export const CORPUS_ASPECTS = ['punctuality', 'scheduling', 'pricing', 'communication', 'professionalism', 'quality', 'knowledge', 'cleanliness', 'warranty'] as const;

const POLS = new Set(['positive', 'negative', 'neutral']);

/** Rows of a corpus file; a malformed row is an error that names its line. */
export function readCorpus(path: string, starless = false): Row[] {
  const lines = readFileSync(path, 'utf8').split('\n');
  const rows: Row[] = [];
  lines.forEach((line, i) => {
    if (i === 0 || !line.trim()) return;
    const [text, stars, overall, aspects = ''] = line.split('\t');
    if (!text || !stars || !overall || !POLS.has(overall) || !/^[1-5]$/.test(stars)) throw new Error(`${path}:${i + 1}: malformed row`);
    const map = new Map<string, Pol>();
    for (const part of aspects.split(';').filter(Boolean)) {
      const [id, pol] = part.trim().split(':');
      if (!id || !pol || !POLS.has(pol) || !(CORPUS_ASPECTS as readonly string[]).includes(id)) throw new Error(`${path}:${i + 1}: bad aspect "${part}"`);
      map.set(id, pol as Pol);
    }
    rows.push({ text: text.trim(), stars: Number(stars), overall: overall as Pol, aspects: map, ...(starless ? { starless } : {}) });
  });
  return rows;
}

export const corpusExists = (path: string): boolean => existsSync(path);
