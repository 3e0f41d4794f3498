// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
//
// Signs random webhook requests with the providers' own npm packages (standardwebhooks, stripe,
// @octokit/webhooks-methods) and node:crypto (Shopify, generic HMAC), and writes them with the
// config that should accept them. Redrive's tst_signatures_interop replays every request.
//
//   node generate-vectors.mjs OUT.json [COUNT] [SEED]
//
// Deterministic for a given SEED, so a failing request can be regenerated and looked at.

import { createHash, createHmac } from 'node:crypto';
import { writeFileSync } from 'node:fs';

import { sign as octokitSign } from '@octokit/webhooks-methods';
import { Webhook } from 'standardwebhooks';
import Stripe from 'stripe';

const [out, countArg = '1200', seedArg = '20240601'] = process.argv.slice(2);
if (!out) {
    console.error('usage: node generate-vectors.mjs OUT.json [COUNT] [SEED]');
    process.exit(2);
}
const count = Number(countArg);
const NOW = 1_700_000_000;
const TOLERANCE = 300;

// ---- deterministic randomness (splitmix32) --------------------------------------------------
let state = Number(seedArg) >>> 0;
function random() {
    state = (state + 0x9e3779b9) >>> 0;
    let z = state;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return ((z ^ (z >>> 16)) >>> 0) / 4294967296;
}
const int = (lo, hi) => lo + Math.floor(random() * (hi - lo + 1));
const pick = (list) => list[int(0, list.length - 1)];
const bytes = (n) => Buffer.from(Array.from({ length: n }, () => int(0, 255)));
const token = (n) => {
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
    return Array.from({ length: n }, () => pick(alphabet)).join('');
};

// Header names as senders and proxies spell them: the receiver must not care.
function spell(name) {
    switch (int(0, 3)) {
    case 0: return name;
    case 1: return name.toLowerCase();
    case 2: return name.toUpperCase();
    default: return name.split('-').map((w) => w.charAt(0).toUpperCase() + w.slice(1).toLowerCase()).join('-');
    }
}

// ---- bodies ---------------------------------------------------------------------------------
const unicodePool = ['é', 'ß', 'Ω', 'ж', '中文', '日本語', '한국어', '😀', '🚀', '👩‍💻', 'e\u0301', '\u00a0', '\u2028', 'ﬀ', '𝄞'];
const unicodeText = (n) => Array.from({ length: n }, () => (random() < 0.5 ? pick(unicodePool) : token(int(1, 6)))).join(' ');

function padding(size) {
    const items = [];
    let length = 0;
    while (length < size) {
        const item = { sku: token(12), qty: int(1, 9), note: unicodeText(int(1, 8)), nested: { a: [1, 2.5, -3e2, true, null] } };
        const text = JSON.stringify(item);
        items.push(item);
        length += text.length + 1;
    }
    return items;
}

// A JSON object body. Some are pretty-printed with CRLF line ends, some carry escapes.
function jsonBody(fields, sizeHint) {
    const value = { ...fields, data: { id: `inner_${token(6)}`, type: 'nested.type', text: unicodeText(int(0, 12)) } };
    if (sizeHint > 0)
        value.data.items = padding(sizeHint);
    const style = int(0, 3);
    let text;
    if (style === 0)
        text = JSON.stringify(value);
    else if (style === 1)
        text = JSON.stringify(value, null, 2).replace(/\n/g, '\r\n');
    else if (style === 2)
        text = JSON.stringify(value, null, '\t');
    else // \u escapes for every non-ASCII character, including surrogate pairs
        text = JSON.stringify(value).replace(/[\u007f-\uffff]/g, (c) => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0'));
    return text;
}

// Body kinds for schemes that do not need JSON.
function anyBody(fields) {
    switch (int(0, 7)) {
    case 0: return '';
    case 1: return unicodeText(int(1, 40));
    case 2: return 'line one\r\nline two\r\n\r\n' + unicodeText(5) + '\r\n';
    case 3: return 'payload=' + encodeURIComponent(JSON.stringify(fields));
    default: return jsonBody(fields, sizeHint());
    }
}

// Mostly small bodies; a few up to 1 MiB.
let bigBodies = 0;
function sizeHint() {
    if (bigBodies < 6 && random() < 0.02) {
        bigBodies += 1;
        return int(256 * 1024, 1024 * 1024 - 4096);
    }
    return random() < 0.2 ? int(1024, 16 * 1024) : 0;
}

// What Redrive reads from a JSON body: the last top-level string member of that name.
function topLevelString(body, key) {
    try {
        const value = JSON.parse(body);
        if (value && typeof value === 'object' && !Array.isArray(value) && typeof value[key] === 'string')
            return value[key];
    } catch {
        // not JSON: no value
    }
    return null;
}

// ---- sources --------------------------------------------------------------------------------
const whsec = () => 'whsec_' + bytes(int(24, 64)).toString('base64');
const sources = [
    { name: 'sw', scheme: 'standard-webhooks', secrets: [whsec()] },
    { name: 'sw-rotating', scheme: 'standard-webhooks', secrets: [whsec(), whsec()] },
    { name: 'stripe', scheme: 'stripe', secrets: ['whsec_' + token(32)] },
    { name: 'stripe-rotating', scheme: 'stripe', secrets: ['whsec_' + token(32), 'whsec_' + token(32)] },
    { name: 'github', scheme: 'github', secrets: [token(int(8, 40))] },
    { name: 'github-rotating', scheme: 'github', secrets: [token(20), unicodeText(3)] },
    { name: 'shopify', scheme: 'shopify', secrets: ['shpss_' + bytes(16).toString('hex'), 'shpss_' + bytes(16).toString('hex')] },
    { name: 'hmac-header', scheme: 'hmac-sha256', secrets: [token(32)], signature_header: 'X-Acme-Signature',
      signature_prefix: 'sha256=', id_header: 'X-Acme-Event-Id', type_header: 'X-Acme-Event-Type' },
    { name: 'hmac-pointer', scheme: 'hmac-sha256', secrets: [token(24), token(24)], signature_encoding: 'base64',
      id_json_pointer: '/meta/event id', type_json_pointer: '/meta/kind' },
    { name: 'hmac-weak', scheme: 'hmac-sha256', secrets: [token(16)] },
];

function toml() {
    const lines = ['[storage]', 'url = "sqlite:///tmp/redrive-interop-unused.db"', ''];
    for (const s of sources) {
        lines.push('[[sources]]');
        for (const [key, value] of Object.entries(s))
            lines.push(`${key} = ${JSON.stringify(value)}`);
        lines.push(`tolerance_seconds = ${TOLERANCE}`, '');
    }
    return lines.join('\n');
}

// Which configured secrets sign a request: one, or old and new together while rotating.
function signers(source) {
    if (source.secrets.length === 1)
        return [0];
    const choice = int(0, 2);
    return choice === 2 ? [0, 1] : [choice];
}

const hmac = (key, data, encoding) => createHmac('sha256', key).update(data).digest(encoding);
const stripe = new Stripe('sk_test_redrive_interop');

async function request(source) {
    const id = `${source.name}_${token(int(8, 24))}`;
    const type = pick(['invoice.paid', 'customer.created', 'order/create', 'push', 'ünïcode.type', 'a.b.c.d']);
    const timestamp = NOW + pick([-TOLERANCE, TOLERANCE, 0, int(-TOLERANCE, TOLERANCE)]);
    const keys = signers(source);
    const headers = [];
    const expect = { id, type: '', weak: false, secret_index: Math.min(...keys) };
    let body;

    switch (source.scheme) {
    case 'standard-webhooks': {
        body = anyBody({ type, id: 'body-id-is-not-used' });
        const signatures = keys.map((k) => new Webhook(source.secrets[k]).sign(id, new Date(timestamp * 1000), body));
        if (random() < 0.2)
            signatures.unshift('v1a,' + bytes(64).toString('base64')); // asymmetric entries are skipped
        headers.push([spell('webhook-id'), id], [spell('webhook-timestamp'), String(timestamp)],
                     [spell('webhook-signature'), signatures.join(' ')]);
        expect.type = topLevelString(body, 'type') ?? '';
        break;
    }
    case 'stripe': {
        body = jsonBody({ id, object: 'event', created: timestamp - int(0, 60), type }, sizeHint());
        const parts = keys.map((k) => stripe.webhooks.generateTestHeaderString({ payload: body, secret: source.secrets[k], timestamp }));
        // One header with every v1, as Stripe sends while a secret is rolled.
        const v1s = parts.map((h) => h.split(',').find((p) => p.startsWith('v1=')));
        headers.push([spell('Stripe-Signature'), [`t=${timestamp}`, ...v1s].join(',')]);
        expect.type = type;
        expect.occurred_at_ms = JSON.parse(body).created * 1000;
        break;
    }
    case 'github': {
        const event = pick(['push', 'pull_request', 'issues', 'ping']);
        const action = random() < 0.6 ? pick(['opened', 'closed', 'synchronize']) : null;
        body = random() < 0.8 ? jsonBody(action ? { action, zen: unicodeText(4) } : { zen: unicodeText(4) }, sizeHint())
                              : anyBody({ action: 'ignored-not-json' });
        if (keys.length > 1)
            keys.splice(1); // GitHub sends one signature; rotation is the receiver trying each secret
        expect.secret_index = keys[0];
        // @octokit/webhooks-methods refuses an empty payload; node:crypto signs that one.
        const signature = body === '' ? 'sha256=' + hmac(source.secrets[keys[0]], body, 'hex')
                                      : await octokitSign(source.secrets[keys[0]], body);
        headers.push([spell('X-GitHub-Event'), event], [spell('X-GitHub-Delivery'), id],
                     [spell('X-Hub-Signature-256'), signature]);
        const bodyAction = topLevelString(body, 'action');
        expect.type = bodyAction ? `${event}.${bodyAction}` : event;
        break;
    }
    case 'shopify': {
        body = anyBody({ id: int(1, 1e9), email: 'jon@example.com' });
        const k = keys[0];
        expect.secret_index = k;
        headers.push([spell('X-Shopify-Topic'), 'orders/create'], [spell('X-Shopify-Webhook-Id'), id],
                     [spell('X-Shopify-Hmac-Sha256'), hmac(source.secrets[k], body, 'base64')],
                     [spell('X-Shopify-Triggered-At'), new Date(timestamp * 1000).toISOString()]);
        expect.type = 'orders/create';
        expect.occurred_at_ms = timestamp * 1000;
        break;
    }
    default: { // hmac-sha256
        const k = keys[0];
        expect.secret_index = k;
        const encoding = source.signature_encoding ?? 'hex';
        if (source.id_json_pointer) {
            body = jsonBody({ meta: { 'event id': id, kind: type } }, sizeHint());
            expect.type = type;
        } else {
            body = anyBody({ type });
        }
        headers.push([spell(source.signature_header ?? 'X-Signature'),
                      (source.signature_prefix ?? '') + hmac(source.secrets[k], body, encoding)]);
        if (source.id_header) {
            headers.push([spell(source.id_header), id], [spell(source.type_header), type]);
            expect.type = type;
        }
        if (!source.id_header && !source.id_json_pointer) {
            expect.id = 'sha256:' + createHash('sha256').update(body).digest('hex');
            expect.weak = true;
        }
        break;
    }
    }
    return { source: source.name, headers, body_b64: Buffer.from(body, 'utf8').toString('base64'), expect };
}

const requests = [];
for (let i = 0; i < count; ++i)
    requests.push(await request(sources[i % sources.length]));

writeFileSync(out, JSON.stringify({ now: NOW, config: toml(), requests }));
const totalBytes = requests.reduce((n, r) => n + Buffer.from(r.body_b64, 'base64').length, 0);
console.log(`wrote ${requests.length} signed requests (${(totalBytes / 1048576).toFixed(1)} MiB of bodies) to ${out}`);
