// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include <QString>

namespace redrive::ui {

// "1 open incident", "3 open incidents", "1,204 dead letters": a count and the word a person
// would write after it, with the number in the user's locale. Never "incident(s)".
inline QString counted(qint64 n, const QString &one, const QString &many)
{
    return QStringLiteral("%L1 %2").arg(n).arg(n == 1 ? one : many);
}

} // namespace redrive::ui
