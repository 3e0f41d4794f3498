// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
//
// Checks Redrive's outgoing Standard Webhooks signatures with the reference npm package.
// Input: the file tst_signatures_export writes. Exit code 0 only when every signature is
// accepted and every altered copy (one body byte, another id, a second later) is refused.
//
//   node verify-standardwebhooks.mjs redrive-signed.json

import { readFileSync } from 'node:fs';

import { Webhook } from 'standardwebhooks';

const [path] = process.argv.slice(2);
if (!path) {
    console.error('usage: node verify-standardwebhooks.mjs FILE');
    process.exit(2);
}
const { now, items } = JSON.parse(readFileSync(path, 'utf8'));
// The library reads the clock itself; pin it to the time the signatures were made for.
Date.now = () => now * 1000;

const accepts = (wh, body, headers) => {
    try {
        wh.verify(body, headers, { jsonParse: false });
        return true;
    } catch {
        return false;
    }
};

let failures = 0;
items.forEach((item, index) => {
    const wh = new Webhook(item.secret);
    const body = Buffer.from(item.body_b64, 'base64').toString('utf8');
    const headers = {
        'webhook-id': item.id,
        'webhook-timestamp': String(item.timestamp),
        'webhook-signature': item.signature,
    };
    const problems = [];
    if (!accepts(wh, body, headers))
        problems.push('rejected');
    const changed = body.length > 0 ? (body[0] === 'x' ? 'y' : 'x') + body.slice(1) : 'x';
    if (accepts(wh, changed, headers))
        problems.push('accepted with one body character changed');
    if (accepts(wh, body, { ...headers, 'webhook-id': item.id + 'x' }))
        problems.push('accepted with another id');
    if (accepts(wh, body, { ...headers, 'webhook-timestamp': String(item.timestamp + 1) }))
        problems.push('accepted one second later');
    if (problems.length > 0) {
        failures += 1;
        console.error(`item ${index} (${item.id}): ${problems.join(', ')}`);
    }
});
console.log(`${items.length - failures}/${items.length} Redrive signatures verified by standardwebhooks`);
process.exit(failures === 0 && items.length > 0 ? 0 : 1);
