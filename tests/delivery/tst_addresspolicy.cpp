// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "deliveryrules/addresspolicy.h"

#include <QTest>

using namespace redrive::delivery;

class TstAddressPolicy final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void refused_data()
    {
        QTest::addColumn<QString>("address");
        QTest::addColumn<QString>("rule");
        // OWASP SSRF "case 2" deny table, Svix is_allowed_test, Convoy's extras, the IANA registries.
        QTest::newRow("metadata") << "169.254.169.254"
                                  << "cloud metadata";
        QTest::newRow("link-local v4") << "169.254.45.1"
                                       << "link-local";
        QTest::newRow("loopback") << "127.0.0.1"
                                  << "loopback";
        QTest::newRow("loopback high") << "127.255.0.9"
                                       << "loopback";
        QTest::newRow("10/8") << "10.254.0.0"
                              << "private 10.0.0.0/8";
        QTest::newRow("172.16/12") << "172.16.10.65"
                                   << "private 172.16.0.0/12";
        QTest::newRow("172.31") << "172.31.255.255"
                                << "private 172.16.0.0/12";
        QTest::newRow("192.168/16") << "192.168.10.65"
                                    << "private 192.168.0.0/16";
        QTest::newRow("cgnat") << "100.100.0.0"
                               << "CGNAT";
        QTest::newRow("this network") << "0.1.2.3"
                                      << "0.0.0.0/8";
        QTest::newRow("unspecified v4") << "0.0.0.0"
                                        << "0.0.0.0/8";
        QTest::newRow("broadcast") << "255.255.255.255"
                                   << "broadcast";
        QTest::newRow("multicast") << "224.0.0.1"
                                   << "multicast";
        QTest::newRow("reserved") << "250.10.20.30"
                                  << "reserved 240.0.0.0/4";
        QTest::newRow("doc 1") << "192.0.2.255"
                               << "documentation";
        QTest::newRow("doc 2") << "198.51.100.65"
                               << "documentation";
        QTest::newRow("doc 3") << "203.0.113.6"
                               << "documentation";
        QTest::newRow("ietf") << "192.0.0.255"
                              << "IETF protocol assignments";
        QTest::newRow("benchmarking") << "198.18.0.0"
                                      << "benchmarking";
        QTest::newRow("6to4 relay") << "192.88.99.1"
                                    << "6to4 relay";
        QTest::newRow("v6 loopback") << "::1"
                                     << "loopback ::1";
        QTest::newRow("v6 unspecified") << "::"
                                        << "unspecified";
        QTest::newRow("mapped loopback") << "::ffff:127.0.0.1"
                                         << "IPv4-mapped";
        QTest::newRow("mapped zero") << "::ffff:0.0.0.1"
                                     << "IPv4-mapped";
        QTest::newRow("mapped metadata") << "::ffff:169.254.169.254"
                                         << "cloud metadata";
        QTest::newRow("translated private") << "::ffff:0:10.0.0.1"
                                            << "IPv4-translated";
        QTest::newRow("v4-compatible") << "::127.0.0.1"
                                       << "IPv4-compatible";
        QTest::newRow("v4-compatible public") << "::8.8.8.8"
                                              << "IPv4-compatible";
        QTest::newRow("nat64 private") << "64:ff9b::10.0.0.1"
                                       << "NAT64";
        QTest::newRow("nat64 metadata") << "64:ff9b::a9fe:a9fe"
                                        << "NAT64";
        QTest::newRow("nat64 local-use") << "64:ff9b:1::1"
                                         << "local-use NAT64";
        QTest::newRow("6to4 loopback") << "2002:7f00:0001::1"
                                       << "6to4";
        QTest::newRow("6to4 private") << "2002:c0a8:0101::1"
                                      << "192.168.0.0/16";
        QTest::newRow("aws metadata v6") << "fd00:ec2::254"
                                         << "cloud metadata fd00:ec2::254";
        QTest::newRow("ula fc00") << "fc00::"
                                  << "unique local";
        QTest::newRow("ula fd") << "fd12:3456::1"
                                << "unique local";
        QTest::newRow("link-local v6") << "fe80::1"
                                       << "link-local fe80::/10";
        QTest::newRow("site-local") << "fec0::1"
                                    << "site-local";
        QTest::newRow("multicast v6") << "ff02::1"
                                      << "multicast";
        QTest::newRow("doc v6") << "2001:db8::1"
                                << "documentation";
        QTest::newRow("doc 3fff") << "3fff:0abc::1"
                                  << "documentation 3fff";
        QTest::newRow("discard") << "100::1"
                                 << "discard";
        QTest::newRow("teredo") << "2001:0:4136:e378::1"
                                << "Teredo";
        QTest::newRow("benchmarking v6") << "2001:2::1"
                                         << "benchmarking";
        QTest::newRow("srv6") << "5f00::1"
                              << "SRv6";
    }
    void refused()
    {
        QFETCH(QString, address);
        QFETCH(QString, rule);
        const QHostAddress a(address);
        QVERIFY2(!a.isNull(), qPrintable(address));
        const AddressVerdict v = addressVerdict(a, false);
        QVERIFY2(!v.allowed, qPrintable(address));
        QVERIFY2(v.rule.contains(rule), qPrintable(v.rule));
    }

    void allowed_data()
    {
        QTest::addColumn<QString>("address");
        QTest::newRow("cloudflare") << "1.1.1.1";
        QTest::newRow("google dns") << "8.8.8.8";
        QTest::newRow("example") << "93.184.216.34";
        QTest::newRow("172.32 is public") << "172.32.0.1";
        QTest::newRow("100.128 is public") << "100.128.0.1";
        QTest::newRow("mapped public") << "::ffff:8.8.8.8";
        QTest::newRow("v6 public") << "2001:4860:4860::8888";
        QTest::newRow("6to4 public") << "2002:0808:0808::1";
    }
    void allowed()
    {
        QFETCH(QString, address);
        const AddressVerdict v = addressVerdict(QHostAddress(address), false);
        QVERIFY2(v.allowed, qPrintable(v.rule));
        QVERIFY(v.rule.isEmpty());
    }

    void allowPrivate_data()
    {
        QTest::addColumn<QString>("address");
        QTest::addColumn<bool>("allowed");
        QTest::newRow("loopback") << "127.0.0.1" << true;
        QTest::newRow("private") << "10.1.2.3" << true;
        QTest::newRow("v6 loopback") << "::1" << true;
        QTest::newRow("ula") << "fd00::5" << true;
        QTest::newRow("mapped loopback") << "::ffff:127.0.0.1" << true;
        QTest::newRow("unspecified") << "0.0.0.0" << false;
        QTest::newRow("v6 unspecified") << "::" << false;
        QTest::newRow("multicast") << "224.0.0.1" << false;
        QTest::newRow("broadcast") << "255.255.255.255" << false;
        QTest::newRow("mapped multicast") << "::ffff:224.0.0.1" << false;
        QTest::newRow("v6 multicast") << "ff02::1" << false;
    }
    void allowPrivate()
    {
        QFETCH(QString, address);
        QFETCH(bool, allowed);
        QCOMPARE(addressVerdict(QHostAddress(address), true).allowed, allowed);
    }

    void literals_data()
    {
        QTest::addColumn<QString>("host");
        QTest::addColumn<QString>("expected"); // empty = not a literal
        QTest::newRow("decimal") << "2130706433"
                                 << "127.0.0.1";
        QTest::newRow("octal") << "0177.0.0.1"
                               << "127.0.0.1";
        QTest::newRow("hex") << "0x7f.0.0.1"
                             << "127.0.0.1";
        QTest::newRow("hex whole") << "0x7f000001"
                                   << "127.0.0.1";
        QTest::newRow("short") << "127.1"
                               << "127.0.0.1";
        QTest::newRow("three parts") << "10.0.258"
                                     << "10.0.1.2";
        QTest::newRow("metadata decimal") << "2852039166"
                                          << "169.254.169.254";
        QTest::newRow("dotted") << "8.8.8.8"
                                << "8.8.8.8";
        QTest::newRow("v6 brackets") << "[::1]"
                                     << "::1";
        QTest::newRow("v6 mapped") << "::ffff:127.0.0.1"
                                   << "::ffff:127.0.0.1";
        QTest::newRow("name") << "example.com"
                              << "";
        QTest::newRow("hexy name") << "cafe"
                                   << "";
        QTest::newRow("five parts") << "1.2.3.4.5"
                                    << "";
        QTest::newRow("octet overflow") << "256.1.1.1"
                                        << "";
        QTest::newRow("bad octal") << "08.0.0.1"
                                   << "";
        QTest::newRow("32-bit overflow") << "4294967296"
                                         << "";
        QTest::newRow("empty part") << "1..2"
                                    << "";
    }
    void literals()
    {
        QFETCH(QString, host);
        QFETCH(QString, expected);
        const auto parsed = parseAddressLiteral(host);
        if (expected.isEmpty()) {
            QVERIFY2(!parsed, qPrintable(parsed ? parsed->toString() : QString()));
        } else {
            QVERIFY(parsed);
            QCOMPARE(*parsed, QHostAddress(expected));
        }
    }

    void literalFormsOfLoopbackAreRefused()
    {
        for (const char *host : { "2130706433", "0177.0.0.1", "0x7f.1", "127.1", "017700000001" }) {
            const auto parsed = parseAddressLiteral(QString::fromLatin1(host));
            QVERIFY2(parsed, host);
            QVERIFY2(!addressVerdict(*parsed, false).allowed, host);
        }
    }
};

QTEST_GUILESS_MAIN(TstAddressPolicy)
#include "tst_addresspolicy.moc"
