// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "addresspolicy.h"

#include <QStringList>

#include <array>

namespace redrive::delivery {
namespace {

struct V4Range {
    quint32 network;
    int prefix;
    const char *rule;
};

constexpr quint32 v4(int a, int b, int c, int d)
{
    return (quint32(a) << 24) | (quint32(b) << 16) | (quint32(c) << 8) | quint32(d);
}

// Most specific first: the first match names the rule.
constexpr std::array<V4Range, 17> kV4Refused { {
    { v4(169, 254, 169, 254), 32, "cloud metadata 169.254.169.254" },
    { v4(255, 255, 255, 255), 32, "broadcast 255.255.255.255" },
    { v4(0, 0, 0, 0), 8, "\"this network\" 0.0.0.0/8" },
    { v4(10, 0, 0, 0), 8, "private 10.0.0.0/8" },
    { v4(100, 64, 0, 0), 10, "shared address space (CGNAT) 100.64.0.0/10" },
    { v4(127, 0, 0, 0), 8, "loopback 127.0.0.0/8" },
    { v4(169, 254, 0, 0), 16, "link-local 169.254.0.0/16" },
    { v4(172, 16, 0, 0), 12, "private 172.16.0.0/12" },
    { v4(192, 0, 0, 0), 24, "IETF protocol assignments 192.0.0.0/24" },
    { v4(192, 0, 2, 0), 24, "documentation 192.0.2.0/24" },
    { v4(192, 88, 99, 0), 24, "6to4 relay anycast 192.88.99.0/24" },
    { v4(192, 168, 0, 0), 16, "private 192.168.0.0/16" },
    { v4(198, 18, 0, 0), 15, "benchmarking 198.18.0.0/15" },
    { v4(198, 51, 100, 0), 24, "documentation 198.51.100.0/24" },
    { v4(203, 0, 113, 0), 24, "documentation 203.0.113.0/24" },
    { v4(224, 0, 0, 0), 4, "multicast 224.0.0.0/4" },
    { v4(240, 0, 0, 0), 4, "reserved 240.0.0.0/4" },
} };

bool inV4(quint32 address, quint32 network, int prefix)
{
    const quint32 mask = prefix == 0 ? 0 : ~quint32(0) << (32 - prefix);
    return (address & mask) == (network & mask);
}

QString v4Text(quint32 a)
{
    return QHostAddress(a).toString();
}

// nullopt = allowed.
std::optional<QString> v4Rule(quint32 address, bool allowPrivate)
{
    if (allowPrivate) {
        if (address == 0)
            return QStringLiteral("unspecified 0.0.0.0");
        if (address == v4(255, 255, 255, 255))
            return QStringLiteral("broadcast 255.255.255.255");
        if (inV4(address, v4(224, 0, 0, 0), 4))
            return QStringLiteral("multicast 224.0.0.0/4");
        return std::nullopt;
    }
    for (const V4Range &r : kV4Refused) {
        if (inV4(address, r.network, r.prefix))
            return QString::fromUtf8(r.rule);
    }
    return std::nullopt;
}

using V6 = std::array<quint8, 16>;

bool inV6(const V6 &a, std::initializer_list<quint8> prefixBytes, int prefixBits)
{
    V6 net {};
    int i = 0;
    for (quint8 b : prefixBytes)
        net[static_cast<std::size_t>(i++)] = b;
    for (int bit = 0; bit < prefixBits; ++bit) {
        const auto byte = static_cast<std::size_t>(bit / 8);
        const int shift = 7 - bit % 8;
        if (((a[byte] >> shift) & 1) != ((net[byte] >> shift) & 1))
            return false;
    }
    return true;
}

quint32 embeddedV4(const V6 &a, std::size_t offset)
{
    return (quint32(a[offset]) << 24) | (quint32(a[offset + 1]) << 16) | (quint32(a[offset + 2]) << 8)
        | quint32(a[offset + 3]);
}

std::optional<QString> v6Rule(const V6 &a, bool allowPrivate)
{
    bool zero96 = true;
    for (std::size_t i = 0; i < 12; ++i)
        zero96 = zero96 && a[i] == 0;
    const bool zero80 = inV6(a, {}, 80);
    const quint32 low = embeddedV4(a, 12);

    if (zero96 && low == 0)
        return QStringLiteral("unspecified ::");
    if (inV6(a, { 0xff }, 8))
        return QStringLiteral("multicast ff00::/8");
    // IPv4-mapped (::ffff:a.b.c.d) and IPv4-translated (::ffff:0:a.b.c.d): the embedded address decides.
    const bool mapped = zero80 && a[10] == 0xff && a[11] == 0xff;
    const bool translated = inV6(a, {}, 64) && a[8] == 0xff && a[9] == 0xff && a[10] == 0 && a[11] == 0;
    if (mapped || translated) {
        if (auto rule = v4Rule(low, allowPrivate))
            return QStringLiteral("IPv4-%1 %2 embeds %3")
                .arg(mapped ? QStringLiteral("mapped") : QStringLiteral("translated"), v4Text(low), *rule);
        return std::nullopt;
    }
    if (allowPrivate)
        return std::nullopt;
    if (zero96 && low == 1)
        return QStringLiteral("loopback ::1");
    if (zero96)
        return QStringLiteral("IPv4-compatible ::/96 (deprecated; embeds %1)").arg(v4Text(low));
    if (inV6(a, { 0x00, 0x64, 0xff, 0x9b }, 96))
        return QStringLiteral("NAT64 64:ff9b::/96 (embeds %1)").arg(v4Text(low));
    if (inV6(a, { 0x00, 0x64, 0xff, 0x9b, 0x00, 0x01 }, 48))
        return QStringLiteral("local-use NAT64 64:ff9b:1::/48");
    if (inV6(a, { 0x01, 0x00 }, 64))
        return QStringLiteral("discard-only 100::/64");
    if (inV6(a, { 0x20, 0x01, 0x00, 0x00 }, 32))
        return QStringLiteral("Teredo 2001::/32");
    if (inV6(a, { 0x20, 0x01, 0x00, 0x02, 0x00, 0x00 }, 48))
        return QStringLiteral("benchmarking 2001:2::/48");
    if (inV6(a, { 0x20, 0x01, 0x00, 0x10 }, 28))
        return QStringLiteral("ORCHID 2001:10::/28");
    if (inV6(a, { 0x20, 0x01, 0x0d, 0xb8 }, 32))
        return QStringLiteral("documentation 2001:db8::/32");
    if (inV6(a, { 0x3f, 0xff, 0x00 }, 20))
        return QStringLiteral("documentation 3fff::/20");
    if (inV6(a, { 0x20, 0x02 }, 16)) {
        const quint32 inner = embeddedV4(a, 2);
        if (auto rule = v4Rule(inner, false))
            return QStringLiteral("6to4 2002::/16 embeds %1, %2").arg(v4Text(inner), *rule);
        return std::nullopt;
    }
    if (inV6(a, { 0x5f, 0x00 }, 16))
        return QStringLiteral("SRv6 SIDs 5f00::/16");
    if (a == V6 { 0xfd, 0x00, 0x0e, 0xc2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x02, 0x54 })
        return QStringLiteral("cloud metadata fd00:ec2::254");
    if (inV6(a, { 0xfc }, 7))
        return QStringLiteral("unique local fc00::/7");
    if (inV6(a, { 0xfe, 0x80 }, 10))
        return QStringLiteral("link-local fe80::/10");
    if (inV6(a, { 0xfe, 0xc0 }, 10))
        return QStringLiteral("site-local fec0::/10 (deprecated)");
    return std::nullopt;
}

// One inet_aton() part: decimal, 0-prefixed octal or 0x-prefixed hex.
std::optional<quint64> atonPart(QStringView part)
{
    if (part.isEmpty())
        return std::nullopt;
    int base = 10;
    QStringView digits = part;
    if (part.size() > 1 && part[0] == u'0' && (part[1] == u'x' || part[1] == u'X')) {
        base = 16;
        digits = part.mid(2);
        if (digits.isEmpty())
            return quint64(0); // "0x" is 0 for inet_aton
    } else if (part.size() > 1 && part[0] == u'0') {
        base = 8;
        digits = part.mid(1);
    }
    if (digits.size() > 12)
        return std::nullopt;
    quint64 value = 0;
    for (QChar c : digits) {
        int d = -1;
        if (c >= u'0' && c <= u'9')
            d = c.unicode() - u'0';
        else if (c >= u'a' && c <= u'f')
            d = c.unicode() - u'a' + 10;
        else if (c >= u'A' && c <= u'F')
            d = c.unicode() - u'A' + 10;
        if (d < 0 || d >= base)
            return std::nullopt;
        value = value * static_cast<quint64>(base) + static_cast<quint64>(d);
    }
    return value;
}

} // namespace

AddressVerdict addressVerdict(const QHostAddress &address, bool allowPrivate)
{
    std::optional<QString> rule;
    if (address.protocol() == QAbstractSocket::IPv4Protocol) {
        rule = v4Rule(address.toIPv4Address(), allowPrivate);
    } else if (address.protocol() == QAbstractSocket::IPv6Protocol) {
        const Q_IPV6ADDR raw = address.toIPv6Address();
        V6 bytes {};
        for (std::size_t i = 0; i < 16; ++i)
            bytes[i] = raw[static_cast<int>(i)];
        rule = v6Rule(bytes, allowPrivate);
    } else {
        rule = QStringLiteral("not an IP address"); // fail closed
    }
    if (rule)
        return { false, *rule };
    return { true, {} };
}

std::optional<QHostAddress> parseAddressLiteral(QStringView host)
{
    QStringView h = host;
    if (h.size() >= 2 && h.front() == u'[' && h.back() == u']')
        h = h.mid(1, h.size() - 2);
    if (h.contains(u':')) {
        QHostAddress a;
        if (a.setAddress(h.toString()) && a.protocol() == QAbstractSocket::IPv6Protocol)
            return a;
        return std::nullopt;
    }
    const QList<QStringView> parts = h.split(u'.');
    if (parts.isEmpty() || parts.size() > 4)
        return std::nullopt;
    QList<quint64> values;
    for (QStringView p : parts) {
        const auto v = atonPart(p);
        if (!v)
            return std::nullopt;
        values.append(*v);
    }
    // inet_aton: a.b.c.d, a.b.c (c is 16 bits), a.b (b is 24 bits), a (32 bits).
    const qsizetype n = values.size();
    for (qsizetype i = 0; i + 1 < n; ++i) {
        if (values[i] > 0xff)
            return std::nullopt;
    }
    const int lastBits = 8 * static_cast<int>(5 - n);
    if (values.last() >= (quint64(1) << lastBits))
        return std::nullopt;
    quint32 address = 0;
    for (qsizetype i = 0; i + 1 < n; ++i)
        address |= quint32(values[i]) << (24 - 8 * i);
    address |= quint32(values.last());
    return QHostAddress(address);
}

} // namespace redrive::delivery
