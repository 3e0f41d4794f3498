// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "originmark.h"

#include <QCoreApplication>

namespace redrive::ui {

bool isReconciled(const QString &origin)
{
    return origin == u"reconciled";
}

QString sourceWithOrigin(const QString &source, const QString &origin)
{
    return isReconciled(origin)
        ? QCoreApplication::translate("redrive::ui::OriginMark", "%1 · reconciled").arg(source)
        : source;
}

QString sourceWithOriginAccessible(const QString &source, const QString &origin)
{
    return isReconciled(origin)
        ? QCoreApplication::translate("redrive::ui::OriginMark", "%1, recovered by reconciliation")
              .arg(source)
        : source;
}

QString originText(const QString &origin)
{
    if (isReconciled(origin))
        return QCoreApplication::translate("redrive::ui::OriginMark", "recovered by reconciliation");
    if (origin.isEmpty() || origin == u"webhook")
        return QCoreApplication::translate("redrive::ui::OriginMark", "webhook");
    return origin; // as stored: an origin this console does not know
}

QString originExplanation(const QString &origin)
{
    if (isReconciled(origin))
        return QCoreApplication::translate("redrive::ui::OriginMark",
            "Its webhook never reached Redrive: a reconciliation run found it in the provider's "
            "API and recorded it as if it had arrived, then routed and delivered it. A webhook "
            "arriving for it later is a duplicate.");
    return QCoreApplication::translate("redrive::ui::OriginMark", "Arrived as a webhook from the provider.");
}

} // namespace redrive::ui
