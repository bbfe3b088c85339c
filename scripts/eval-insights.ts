/**
 * Scores the aspect analyser against the hand-labelled sentences in eval/insights-sentences.tsv:
 * aspect detection precision, recall and F1 over (sentence, aspect) pairs, and polarity accuracy
 * over the pairs found. `--errors` lists every miss.
 */
import { readFileSync } from 'node:fs';
import { AspectAnalyser } from '../src/core/insights/analyser.js';

const SIGN: Record<string, string> = { '+': 'positive', '-': 'negative', '0': 'neutral' };
const file = new URL('../eval/insights-sentences.tsv', import.meta.url);
const rows = readFileSync(file, 'utf8')
  .split('\n')
  .filter((l) => l.trim() && !l.startsWith('#'))
  .map((l) => {
    const [labels, text] = l.split('\t') as [string, string];
    const gold = new Map<string, string>();
    if (labels !== 'none') for (const part of labels.split(',')) {
      const [id, sign] = part.split(':') as [string, string];
      gold.set(id, SIGN[sign]!);
    }
    return { text: text.trim(), gold };
  });

const analyser = new AspectAnalyser();
let tp = 0, fp = 0, fn = 0, polarityRight = 0;
const errors: string[] = [];
for (const { text, gold } of rows) {
  const found = new Map<string, string>();
  for (const s of analyser.text(text)) for (const a of s.aspects) found.set(a.aspect, a.polarity);
  for (const [id, pol] of found) {
    if (gold.has(id)) {
      tp++;
      if (gold.get(id) === pol) polarityRight++;
      else errors.push(`polarity  ${id}: expected ${gold.get(id)}, got ${pol}  | ${text}`);
    } else {
      fp++;
      errors.push(`extra     ${id} (${pol})  | ${text}`);
    }
  }
  for (const id of gold.keys()) if (!found.has(id)) {
    fn++;
    errors.push(`missed    ${id}  | ${text}`);
  }
}
const precision = tp / (tp + fp);
const recall = tp / (tp + fn);
const f1 = (2 * precision * recall) / (precision + recall);
const accuracy = polarityRight / tp;
if (process.argv.includes('--errors')) console.log(errors.join('\n'), '\n');
console.log(`sentences ${rows.length}, labelled aspects ${tp + fn}`);
console.table({ 'aspect precision': precision.toFixed(3), 'aspect recall': recall.toFixed(3), 'aspect F1': f1.toFixed(3), 'polarity accuracy': accuracy.toFixed(3) });
const TARGET = 0.9;
const ok = [precision, recall, f1, accuracy].every((v) => v >= TARGET);
console.log(ok ? `all figures >= ${TARGET}` : `below the ${TARGET} target`);
process.exitCode = ok ? 0 : 1;
