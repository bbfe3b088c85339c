/** JSON Schema as HTML for the developer pages: type names, field tables, inline Markdown code spans. */
import { html, type Html } from './html.js';

export interface JsonSchemaNode {
  type?: string | string[];
  description?: string;
  $ref?: string;
  anyOf?: JsonSchemaNode[];
  items?: JsonSchemaNode;
  additionalProperties?: boolean | JsonSchemaNode;
  properties?: Record<string, JsonSchemaNode>;
  required?: string[];
  enum?: unknown[];
  const?: unknown;
}

/** Where the API reference describes a named schema (an anchor on /developers/api). */
export const schemaHref = (name: string) => `/developers/api#schema-${name}`;

/** The type of a schema in words, each named schema linked to its description in the API reference. */
export function typeLabel(s: JsonSchemaNode): Html {
  if (s.$ref) {
    const name = s.$ref.split('/').pop()!;
    return html`<a href="${schemaHref(name)}">${name}</a>`;
  }
  if (s.anyOf) return html`${s.anyOf.map((b, i) => html`${i ? ' or ' : ''}${typeLabel(b)}`)}`;
  if (s.const !== undefined) return html`<code>${JSON.stringify(s.const)}</code>`;
  if (s.enum) return html`one of ${s.enum.map((v, i) => html`${i ? ', ' : ''}<code class="value">${JSON.stringify(v)}</code>`)}`;
  const type = Array.isArray(s.type) ? s.type.join(' or ') : s.type ?? 'any';
  if (type === 'array' && s.items) return html`array of ${typeLabel(s.items)}`;
  if (type === 'object' && typeof s.additionalProperties === 'object') return html`map of ${typeLabel(s.additionalProperties)}`;
  return html`${type}`;
}

/** A field or parameter name that may break after "_" or "-", so long names fit a phone's table column. */
export function breakableName(name: string): Html {
  return html`${name.split(/(?<=[_-])/).map((part, i) => (i ? html`<wbr>${part}` : part))}`;
}

/** Descriptions are written with Markdown code spans (`like this`); the rest is plain text. */
export function inlineMarkdown(text: string): Html {
  return html`${text.split('`').map((part, i) => (i % 2 ? html`<code>${part}</code>` : part))}`;
}

/**
 * A table that may be wider than a phone: a labelled region, reachable with the keyboard so it
 * can be scrolled without a mouse (axe: scrollable-region-focusable).
 */
export function scrollTable(label: string, table: Html): Html {
  return html`<div class="table-scroll" tabindex="0" role="region" aria-label="${label}">${table}</div>`;
}

/** One row per property of an object schema: name, type and meaning. */
export function fieldTable(schema: JsonSchemaNode, caption: string): Html {
  const rows = Object.entries(schema.properties ?? {});
  return scrollTable(
    caption,
    html`<table class="fields"><caption class="sr-only">${caption}</caption>
<thead><tr><th scope="col">Field</th><th scope="col">Type</th><th scope="col">Meaning</th></tr></thead>
<tbody>${rows.map(([name, p]) => html`<tr><th scope="row"><code>${breakableName(name)}</code></th><td>${typeLabel(p)}${schema.required?.includes(name) ? '' : ' (optional)'}</td><td>${inlineMarkdown(p.description ?? '')}</td></tr>`)}</tbody></table>`,
  );
}

/**
 * A code block, reachable by keyboard because it scrolls sideways on a phone. A command gets a
 * copy button; public/copy.js makes it work, and without script the command is still plain text.
 */
export function codeBlock(text: string, copy = false): Html {
  const pre = html`<pre tabindex="0"><code>${text}</code></pre>`;
  return copy ? html`<div class="copyable">${pre}<button type="button" class="copy" hidden>Copy</button></div>` : pre;
}
