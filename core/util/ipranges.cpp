// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "ipranges.h"

#include <algorithm>
#include <arpa/inet.h>
#include <cstring>

namespace redrive {
namespace {

bool isDecimal(QStringView s)
{
    if (s.isEmpty() || s.size() > 3)
        return false;
    for (QChar c : s) {
        if (c < u'0' || c > u'9')
            return false;
    }
    return true;
}

// Four dotted decimal parts, each 0-255: QHostAddress alone would also take "10.1" as 10.0.0.1.
bool isDottedQuad(QStringView s)
{
    qsizetype parts = 0;
    for (QStringView part : s.split(u'.')) {
        if (!isDecimal(part) || part.toInt() > 255)
            return false;
        ++parts;
    }
    return parts == 4;
}

bool isV4Mapped(const QHostAddress &a)
{
    if (a.protocol() != QAbstractSocket::IPv6Protocol)
        return false;
    const Q_IPV6ADDR b = a.toIPv6Address();
    for (int i = 0; i < 10; ++i) {
        if (b[i] != 0)
            return false;
    }
    return b[10] == 0xff && b[11] == 0xff;
}

QByteArrayView trimmed(QByteArrayView s)
{
    while (!s.isEmpty() && (s.front() == ' ' || s.front() == '\t'))
        s = s.sliced(1);
    while (!s.isEmpty() && (s.back() == ' ' || s.back() == '\t'))
        s.chop(1);
    return s;
}

} // namespace

QString IpRange::toString() const
{
    return network.toString() + u'/' + QString::number(prefix);
}

QHostAddress unmappedAddress(const QHostAddress &address)
{
    if (!isV4Mapped(address))
        return address;
    bool ok = false;
    const quint32 v4 = address.toIPv4Address(&ok);
    return ok ? QHostAddress(v4) : address;
}

std::optional<IpRange> IpRanges::parse(QStringView text, QString *reason)
{
    const qsizetype slash = text.indexOf(u'/');
    const QStringView host = slash < 0 ? text : text.left(slash);
    const bool v6 = host.contains(u':');
    if (host.contains(u'%')) {
        *reason = QStringLiteral("\"%1\" carries a zone id; write the range without %zone").arg(text);
        return std::nullopt;
    }
    QHostAddress address;
    if ((!v6 && !isDottedQuad(host)) || !address.setAddress(host.toString())) {
        *reason
            = QStringLiteral("\"%1\" is not an IPv4 or IPv6 address or CIDR range (e.g. \"192.0.2.0/24\", "
                             "\"2001:db8::/32\")")
                  .arg(text);
        return std::nullopt;
    }
    const int bits = v6 ? 128 : 32;
    int prefix = bits;
    if (slash >= 0) {
        const QStringView p = text.sliced(slash + 1);
        if (!isDecimal(p) || p.toInt() > bits) {
            *reason = QStringLiteral("\"%1\": the prefix length must be a number from 0 to %2")
                          .arg(text)
                          .arg(bits);
            return std::nullopt;
        }
        prefix = p.toInt();
    }
    const auto [network, length]
        = QHostAddress::parseSubnet(address.toString() + u'/' + QString::number(prefix));
    if (network.isNull() || length != prefix) {
        *reason = QStringLiteral("\"%1\" is not a valid range").arg(text);
        return std::nullopt;
    }
    if (network != address) {
        *reason = QStringLiteral("\"%1\" has host bits set; the range is %2/%3")
                      .arg(text, network.toString(), QString::number(prefix));
        return std::nullopt;
    }
    IpRange range { network, prefix };
    if (isV4Mapped(network) && prefix >= 96)
        range = { unmappedAddress(network), prefix - 96 };
    return range;
}

void IpRanges::append(const IpRange &range)
{
    m_ranges.append(range);
    Raw raw;
    raw.prefix = range.prefix;
    raw.v4 = range.network.protocol() == QAbstractSocket::IPv4Protocol;
    if (raw.v4) {
        const quint32 v4 = range.network.toIPv4Address();
        for (int i = 0; i < 4; ++i)
            raw.network[i] = static_cast<quint8>(v4 >> (24 - 8 * i));
    } else {
        const Q_IPV6ADDR v6 = range.network.toIPv6Address();
        std::memcpy(raw.network.data(), &v6, 16);
    }
    m_raw.push_back(raw);
}

bool IpRanges::containsRaw(const quint8 *address, bool v4) const
{
    for (const Raw &r : m_raw) {
        if (r.v4 != v4)
            continue;
        const int whole = r.prefix / 8;
        if (std::memcmp(address, r.network.data(), static_cast<size_t>(whole)) != 0)
            continue;
        const int rest = r.prefix % 8;
        if (rest == 0)
            return true;
        const auto mask = static_cast<quint8>(0xff << (8 - rest));
        if ((address[whole] & mask) == r.network[whole]) // host bits of the range are clear
            return true;
    }
    return false;
}

bool IpRanges::contains(const QHostAddress &address) const
{
    const QHostAddress a = unmappedAddress(address);
    std::array<quint8, 16> bytes {};
    if (a.protocol() == QAbstractSocket::IPv4Protocol) {
        const quint32 v4 = a.toIPv4Address();
        for (int i = 0; i < 4; ++i)
            bytes[i] = static_cast<quint8>(v4 >> (24 - 8 * i));
        return containsRaw(bytes.data(), true);
    }
    if (a.protocol() == QAbstractSocket::IPv6Protocol) {
        const Q_IPV6ADDR v6 = a.toIPv6Address();
        std::memcpy(bytes.data(), &v6, 16);
        return containsRaw(bytes.data(), false);
    }
    return false; // a null address lies in no range
}

std::optional<bool> IpRanges::containsText(QStringView address) const
{
    // INET6_ADDRSTRLEN is 46 with the NUL; anything longer is not a plain address.
    std::array<char, 48> text {};
    if (address.isEmpty() || address.size() >= static_cast<qsizetype>(text.size()))
        return std::nullopt;
    for (qsizetype i = 0; i < address.size(); ++i) {
        const char16_t c = address[i].unicode();
        if (c == 0 || c > 0x7f)
            return std::nullopt;
        text[static_cast<size_t>(i)] = static_cast<char>(c);
    }
    std::array<quint8, 16> bytes {};
    if (inet_pton(AF_INET, text.data(), bytes.data()) == 1)
        return containsRaw(bytes.data(), true);
    if (inet_pton(AF_INET6, text.data(), bytes.data()) != 1)
        return std::nullopt;
    const bool mapped = std::all_of(bytes.begin(), bytes.begin() + 10, [](quint8 b) { return b == 0; })
        && bytes[10] == 0xff && bytes[11] == 0xff;
    if (mapped) // ::ffff:a.b.c.d is matched as IPv4, as contains() does
        return containsRaw(bytes.data() + 12, true);
    return containsRaw(bytes.data(), false);
}

ClientAddress clientAddress(const QString &peer, const Headers &headers, const IpRanges &trustedProxies)
{
    ClientAddress c;
    c.peer = peer;
    c.address = peer;
    c.parsed = QHostAddress(peer);
    if (trustedProxies.isEmpty() || !trustedProxies.contains(c.parsed))
        return c;
    // Every X-Forwarded-For field, in arrival order, is one list (RFC 9110 §5.3).
    QList<QByteArrayView> entries;
    for (const auto &[name, value] : headers.fields()) {
        if (name.size() != 15 || name.compare("X-Forwarded-For", Qt::CaseInsensitive) != 0)
            continue;
        QByteArrayView rest(value);
        for (qsizetype comma = rest.indexOf(','); comma >= 0; comma = rest.indexOf(',')) {
            entries.append(trimmed(rest.first(comma)));
            rest = rest.sliced(comma + 1);
        }
        entries.append(trimmed(rest));
    }
    // The right-most entries were written by the proxies nearest to us; the first one that is
    // not a trusted proxy is the client. Anything further left could have been written by anyone.
    for (qsizetype i = entries.size() - 1; i >= 0; --i) {
        QHostAddress hop;
        const QString text = QString::fromLatin1(entries[i]);
        if (text.contains(u'%') || !hop.setAddress(text) || (!text.contains(u':') && !isDottedQuad(text))) {
            c.malformedForwardedFor = true; // judged by the trusted hop that handed it on
            return c;
        }
        c.address = text;
        c.parsed = hop;
        c.viaProxy = true;
        if (!trustedProxies.contains(hop))
            return c;
    }
    return c;
}

} // namespace redrive
