// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include <QHostAddress>
#include <QString>
#include <QStringView>

#include <optional>

// The SSRF guard for outgoing deliveries. The HTTP client resolves a destination's host, runs
// EVERY resolved address through addressVerdict() and connects only to allowed ones, at connect
// time, so a DNS answer that changes between attempts cannot slip through.
//
// Refused unless the destination sets allow_private = true (IANA IPv4/IPv6 special-purpose
// registries, OWASP SSRF "case 2", and the ranges Svix and Convoy block):
//   IPv4  0/8, 10/8, 100.64/10 (CGNAT), 127/8, 169.254/16 (link-local, incl. the cloud metadata
//         address 169.254.169.254), 172.16/12, 192.0.0/24, 192.0.2/24, 192.88.99/24,
//         192.168/16, 198.18/15, 198.51.100/24, 203.0.113/24, 224/4 (multicast), 240/4
//         (reserved, incl. 255.255.255.255 broadcast)
//   IPv6  ::, ::1, ::/96 (IPv4-compatible), ::ffff:0:0/96 and ::ffff:0:0:0/96 (IPv4-mapped and
//         -translated: judged by the embedded IPv4), 64:ff9b::/96 and 64:ff9b:1::/48 (NAT64),
//         100::/64 (discard), 2001::/32 (Teredo), 2001:2::/48 (benchmarking), 2001:10::/28
//         (ORCHID), 2001:db8::/32 and 3fff::/20 (documentation), 2002::/16 (6to4) when the
//         embedded IPv4 is refused, 5f00::/16 (SRv6), fc00::/7 (ULA, incl. the AWS metadata
//         address fd00:ec2::254), fe80::/10 (link-local), fec0::/10 (site-local), ff00::/8
//         (multicast)
// With allow_private = true only addresses a TCP connection can never sensibly target stay
// refused: unspecified, multicast and broadcast.
namespace redrive::delivery {

struct AddressVerdict {
    bool allowed = false;
    QString rule; // the range that refused it, e.g. "private 10.0.0.0/8"; empty when allowed
};

AddressVerdict addressVerdict(const QHostAddress &address, bool allowPrivate);

// A URL host that is an IP address literal, in any form the C library's inet_aton() would accept
// ("2130706433", "0177.0.0.1", "0x7f.1", "127.1") or an IPv6 literal (with or without brackets).
// Resolvers treat these as addresses, so the guard must too. nullopt for host names.
std::optional<QHostAddress> parseAddressLiteral(QStringView host);

} // namespace redrive::delivery
