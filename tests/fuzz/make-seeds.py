#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# SPDX-FileCopyrightText: Redrive authors
"""Writes the committed seed corpora (corpus/<target>/) from the known-answer vectors the unit
tests use. Re-run after changing a vector; libFuzzer grows its own corpus from these in a
temporary copy during each CTest run."""

import base64
import hashlib
import hmac
import pathlib

HERE = pathlib.Path(__file__).resolve().parent
NOW = 1_700_000_000

SW_KEY = base64.b64decode("MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw")
SW_SIG = b"v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="
GH_SIG = b"sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17"
STRIPE_HEADER = b"t=1686089970,v1=a643cf0d8ea342b6e1336630dacf50c0e76f6dfc79b04618be2af2ee11b72faa"
STRIPE_OLD_V1 = b"efdf0cd689589ebdded81cb3bca16cafbe5f691ca48b8f3eafec48c836dbd732"
STRIPE_BODY = (b'{"id":"evt_1NG8Du2eZvKYlo2CUI79vXWy","object":"event","created":1686089970,'
               b'"type":"customer.created","data":{"object":{"id":"cus_O2D2hVQ7D9F8sM",'
               b'"name":"Zo\\u00eb \\"Q\\" Test"}}}')
SHOPIFY_BODY = '{"id":820982911946154508,"email":"jon@example.com","note":"café"}'.encode()


def write(target, name, data):
    directory = HERE / "corpus" / target
    directory.mkdir(parents=True, exist_ok=True)
    (directory / name).write_bytes(data)


def main():
    # Stripe-Signature
    write("stripe_header", "kat", STRIPE_HEADER)
    write("stripe_header", "rotation", STRIPE_HEADER + b",v1=" + STRIPE_OLD_V1 + b",v0=" + STRIPE_OLD_V1)
    write("stripe_header", "no-t", b"v1=" + STRIPE_OLD_V1)
    write("stripe_header", "two-t", b"t=1,t=2,v1=" + STRIPE_OLD_V1)

    # webhook-signature
    write("standard_webhooks_list", "kat", SW_SIG)
    write("standard_webhooks_list", "several", b"v1a,AAAA " + SW_SIG + b"  v2,x v1," + base64.b64encode(bytes(32)))

    # X-Hub-Signature-256
    write("github_signature", "kat", GH_SIG)
    write("github_signature", "upper", GH_SIG.upper())

    # Unix seconds
    for name, text in {"kat": b"1614265330", "zero": b"0", "max": b"999999999999", "long": b"1000000000000",
                       "negative": b"-1614265330", "space": b" 1614265330"}.items():
        write("unix_seconds", name, text)

    # Top-level JSON: first byte picks the key (0 id, 1 type, 2 created, 3 action).
    write("json_string", "stripe-id", b"\x00" + STRIPE_BODY)
    write("json_string", "stripe-type", b"\x01" + STRIPE_BODY)
    write("json_string", "stripe-created", b"\x02" + STRIPE_BODY)
    write("json_string", "sw-body", b"\x01" + b'{"test": 2432232314, "type": "a\\ud83d\\ude00b"}')
    write("json_string", "github-action", b"\x03" + b'{\r\n  "action": "opened",\r\n  "pr": {"action": [1, 2.5e-3, true, null, {}]}\r\n}')
    write("json_string", "shopify", b"\x00" + SHOPIFY_BODY)
    write("json_string", "escaped-key", b"\x00" + b'{"\\u0069d":"x","id":"y"}')

    # Whole requests: control byte, header lines, empty line, body (see fuzz_verify.cpp).
    def request(control, headers, body):
        return bytes([control]) + b"".join(n + b": " + v + b"\n" for n, v in headers) + b"\n" + body

    ts = str(NOW - 42).encode()
    sw_sig = b"v1," + base64.b64encode(hmac.new(SW_KEY, b"msg_1." + ts + b"." + b'{"type":"a.b"}', hashlib.sha256).digest())
    write("verify", "sw-signed", request(0x08, [(b"webhook-id", b"msg_1"), (b"webhook-timestamp", ts),
                                                (b"webhook-signature", sw_sig)], b'{"type":"a.b"}'))
    write("verify", "sw-kat", request(0x00, [(b"webhook-id", b"msg_p5jXN8AQM9LWM0D4loKWxJek"),
                                             (b"webhook-timestamp", b"1614265330"), (b"webhook-signature", SW_SIG)],
                                      b'{"test": 2432232314}'))
    write("verify", "stripe-signed", request(0x09, [(b"Stripe-Signature", b"t=" + ts + b",v1=" + STRIPE_OLD_V1)],
                                             STRIPE_BODY))
    write("verify", "stripe-kat", request(0x01, [(b"Stripe-Signature", STRIPE_HEADER)], STRIPE_BODY))
    write("verify", "github-signed", request(0x0a, [(b"X-GitHub-Event", b"pull_request"),
                                                    (b"X-GitHub-Delivery", b"72d3162e-cc78-11e3-81ab-4c9367dc0958")],
                                             b'{"action":"opened","number":1}'))
    write("verify", "github-kat", request(0x02, [(b"X-GitHub-Event", b"push"), (b"X-GitHub-Delivery", b"d-1"),
                                                 (b"X-Hub-Signature-256", GH_SIG)], b"Hello, World!"))
    write("verify", "shopify-signed", request(0x0b, [(b"X-Shopify-Topic", b"orders/create"),
                                                     (b"X-Shopify-Webhook-Id", b"b54557e4"),
                                                     (b"X-Shopify-Triggered-At", b"2023-03-29T18:00:27.877041743Z")],
                                              SHOPIFY_BODY))
    write("verify", "hmac-weak-signed", request(0x0c, [], b"plain body"))
    write("verify", "hmac-header-signed", request(0x0c | 0x10 | 0x20, [(b"X-Id", b"ev-1"), (b"X-Type", b"t")], b"{}"))
    write("verify", "hmac-pointer-signed", request(0x0c | 0x40, [], b'{"meta":{"id":12345},"type":"order.paid"}'))
    # NUL where a sender can put one: a JSON "\u0000" in a business key, an id and a type.
    write("verify", "hmac-pointer-nul-key", request(0x0c | 0x40, [(b"X-Shop", b"shop-1")],
                                                     b'{"meta":{"id":"a","key":"k\\u0000x"},"type":"t"}'))
    write("verify", "hmac-pointer-nul-id", request(0x0c | 0x40, [], b'{"meta":{"id":"a\\u0000b"},"type":"t\\u0000"}'))
    write("verify", "stripe-nul-key", request(0x09, [(b"Stripe-Signature", b"t=" + ts + b",v1=00")],
                                              b'{"id":"evt_1","type":"a","meta":{"key":"\\u0000"}}'))


if __name__ == "__main__":
    main()
