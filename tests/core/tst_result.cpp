// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "util/result.h"

#include <QTest>

#include <memory>

using namespace redrive;

namespace {
Result<int> half(int n)
{
    if (n % 2 != 0)
        return Failure(QStringLiteral("%1 is odd").arg(n));
    return n / 2;
}

Result<> check(bool good)
{
    if (!good)
        return Failure(QStringLiteral("not good"));
    return ok();
}
} // namespace

// Result is the one error contract of core/: a value or the text of what went wrong, never both.
class TstResult : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void valueOrFailure();
    void voidResult();
    void moveOnlyValue();
    void toOptional();
};

void TstResult::valueOrFailure()
{
    const Result<int> good = half(8);
    QVERIFY(good);
    QCOMPARE(*good, 4);
    QVERIFY(good.error().isEmpty());
    const Result<int> bad = half(7);
    QVERIFY(!bad);
    QVERIFY(!bad.has_value());
    QCOMPARE(bad.error(), QStringLiteral("7 is odd"));
    QCOMPARE(bad.value_or(-1), -1);
}

void TstResult::voidResult()
{
    QVERIFY(check(true));
    QVERIFY(check(true).error().isEmpty());
    const Result<> bad = check(false);
    QVERIFY(!bad);
    QCOMPARE(bad.error(), QStringLiteral("not good"));
}

void TstResult::moveOnlyValue()
{
    auto make = [](bool good) -> Result<std::unique_ptr<int>> {
        if (!good)
            return Failure(QStringLiteral("no"));
        return std::make_unique<int>(5);
    };
    Result<std::unique_ptr<int>> r = make(true);
    QVERIFY(r);
    std::unique_ptr<int> p = std::move(r).value();
    QCOMPARE(*p, 5);
    QCOMPARE(make(false).error(), QStringLiteral("no"));
}

void TstResult::toOptional()
{
    QCOMPARE(half(6).toOptional(), std::optional<int>(3));
    QCOMPARE(half(5).toOptional(), std::optional<int>());
}

QTEST_GUILESS_MAIN(TstResult)
#include "tst_result.moc"
