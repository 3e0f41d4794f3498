// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include <QString>
#include <QStringList>

class QWidget;

namespace redrive::ui {

// Every "save as" the console asks goes through here, so tests can answer it: queued answers
// are used first (an empty answer means the user cancelled), otherwise the platform dialog runs.
class FileChooser final {
public:
    static QString saveFileName(
        QWidget *parent, const QString &title, const QString &suggestedName, const QString &filter);

    static void setNextAnswers(QStringList paths);
};

} // namespace redrive::ui
