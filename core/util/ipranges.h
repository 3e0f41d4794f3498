// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

// Address ranges for source allowlists (`allowed_ips`) and trusted proxies
// (`[server] trusted_proxies`), and the client address of a request behind those proxies.

#include "util/headers.h"

#include <QHostAddress>
#include <QList>
#include <QString>
#include <QStringList>

#include <array>
#include <optional>
#include <vector>

namespace redrive {

// One CIDR range. IPv4 or IPv6; an IPv4-mapped IPv6 range (::ffff:a.b.c.d/96+) is kept as the
// IPv4 range it names, so it matches what contains() matches.
struct IpRange {
    QHostAddress network; // host bits clear
    int prefix = 0;
    [[nodiscard]] QString toString() const;
};

class IpRanges final {
public:
    // "192.30.252.0/22", "2a0a:a440::/29", or a bare address (= /32 or /128). Strict, so a typo
    // never widens a range: four dotted decimal parts for IPv4, a decimal prefix within the
    // family's length, no zone id, and no host bits set ("10.0.0.1/8" is refused, naming
    // 10.0.0.0/8). nullopt with `reason` set otherwise.
    static std::optional<IpRange> parse(QStringView text, QString *reason);

    void append(const IpRange &range);
    [[nodiscard]] bool isEmpty() const { return m_ranges.isEmpty(); }
    [[nodiscard]] qsizetype size() const { return m_ranges.size(); }
    [[nodiscard]] const QList<IpRange> &ranges() const { return m_ranges; }

    // True when `address` lies in one of the ranges. An IPv4-mapped IPv6 address
    // (::ffff:a.b.c.d, what a dual-stack socket reports for an IPv4 peer) is matched as IPv4.
    [[nodiscard]] bool contains(const QHostAddress &address) const;
    // The same for an address in text, as a socket reports it ("192.0.2.1", "2001:db8::1"),
    // without allocating: nullopt when the text is not a plain address (a zone id, say), for the
    // caller to parse with QHostAddress and ask contains().
    [[nodiscard]] std::optional<bool> containsText(QStringView address) const;

private:
    // Each range as raw bytes, compared a prefix at a time; the IPv4 ones in the first 4 bytes.
    struct Raw {
        std::array<quint8, 16> network {};
        int prefix = 0;
        bool v4 = false;
    };
    [[nodiscard]] bool containsRaw(const quint8 *address, bool v4) const;

    QList<IpRange> m_ranges;
    std::vector<Raw> m_raw;
};

// ::ffff:a.b.c.d → a.b.c.d; anything else unchanged.
QHostAddress unmappedAddress(const QHostAddress &address);

// Who sent a request.
struct ClientAddress {
    QString address; // the peer, or the right-most X-Forwarded-For entry that is not a trusted proxy
    QHostAddress parsed; // `address` parsed (null if the peer's text was not an address)
    QString peer; // the TCP peer
    bool viaProxy = false; // `address` was taken from X-Forwarded-For
    // An X-Forwarded-For entry that should have named the client was not an address: `address`
    // is then the last trusted hop, the one that handed on the unreadable entry.
    bool malformedForwardedFor = false;
};

// The client address: the peer unless the peer is in `trustedProxies`; then the X-Forwarded-For
// entries (every such field, joined in order) are walked from the right, skipping trusted proxies,
// and the first untrusted one is the client. When every entry is trusted the left-most is taken.
// X-Forwarded-For from an untrusted peer is ignored entirely.
ClientAddress clientAddress(const QString &peer, const Headers &headers, const IpRanges &trustedProxies);

} // namespace redrive
