// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "filechooser.h"

#include <QFileDialog>

namespace redrive::ui {
namespace {
QStringList g_queued;
} // namespace

QString FileChooser::saveFileName(
    QWidget *parent, const QString &title, const QString &suggestedName, const QString &filter)
{
    if (!g_queued.isEmpty())
        return g_queued.takeFirst();
    return QFileDialog::getSaveFileName(parent, title, suggestedName, filter);
}

void FileChooser::setNextAnswers(QStringList paths)
{
    g_queued = std::move(paths);
}

} // namespace redrive::ui
