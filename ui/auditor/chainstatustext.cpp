// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "chainstatustext.h"

#include "util/clock.h"

#include <QCoreApplication>

namespace redrive::ui {

ChainStatusText describeChainStatus(const audit::ChainReport &report,
    const std::optional<audit::ChainAnchor> &signedCheckpoint, const QList<audit::ChainAnchor> &saved,
    const QString &noCheckpointReason)
{
    using State = audit::AnchorResult::State;
    ChainStatusText t;
    const audit::VerifyResult &chain = report.chain;
    const int offset = signedCheckpoint ? 1 : 0;
    if (!chain.ok) {
        t.chain = QCoreApplication::translate("redrive::ui::ChainStatusText", "Chain broken at #%1: %2")
                      .arg(chain.firstBadSeq.value_or(0))
                      .arg(chain.problem);
    } else {
        t.chainGood = true;
        t.chain = QCoreApplication::translate("redrive::ui::ChainStatusText", "Chain intact to #%1")
                      .arg(chain.head.seq);
        if (signedCheckpoint && !report.anchors.isEmpty()) {
            const audit::AnchorResult &r = report.anchors.first();
            if (r.state == State::Unchanged) {
                t.chain += QCoreApplication::translate(
                    "redrive::ui::ChainStatusText", " · checkpoint #%1 verified (key %2)")
                               .arg(signedCheckpoint->seq)
                               .arg(signedCheckpoint->keyId);
            } else {
                t.chainGood = false;
                t.chain += QCoreApplication::translate(
                    "redrive::ui::ChainStatusText", " · the receiver's checkpoint #%1 does NOT match: %2")
                               .arg(signedCheckpoint->seq)
                               .arg(r.problem);
            }
        } else if (!noCheckpointReason.isEmpty()) {
            t.chain += QStringLiteral(" · ") + noCheckpointReason; // a separator, not words
        }
    }

    if (saved.isEmpty()) {
        t.checkpoints = QCoreApplication::translate("redrive::ui::ChainStatusText",
            "No saved checkpoints. \"Save checkpoint\" keeps the chain's head on this computer, so a later "
            "rewrite or a cut-off tail is caught.");
        return t;
    }
    for (qsizetype i = 0; i < saved.size() && offset + i < report.anchors.size(); ++i) {
        const audit::AnchorResult &r = report.anchors.at(offset + i);
        if (r.state == State::Unchanged)
            continue;
        const audit::ChainAnchor &a = saved.at(i);
        t.checkpointsGood = false;
        t.checkpoints = r.state == State::CutOff
            ? QCoreApplication::translate("redrive::ui::ChainStatusText",
                "Saved checkpoint #%1 (taken %2): the tail was cut off, first missing entry #%3 — %4")
            : QCoreApplication::translate("redrive::ui::ChainStatusText",
                "Saved checkpoint #%1 (taken %2): changed, first changed entry #%3 — %4");
        t.checkpoints = t.checkpoints.arg(a.seq).arg(isoUtc(a.atMs)).arg(r.firstChangedSeq).arg(r.problem);
        return t;
    }
    const audit::ChainAnchor &latest = saved.last();
    t.checkpoints = saved.size() == 1
        ? QCoreApplication::translate(
            "redrive::ui::ChainStatusText", "Nothing changed up to the saved checkpoint #%1 (taken %2).")
              .arg(latest.seq)
              .arg(isoUtc(latest.atMs))
        : QCoreApplication::translate("redrive::ui::ChainStatusText",
            "Nothing changed up to any of the %n saved checkpoint(s) (latest #%1, taken %2).", nullptr,
            int(saved.size()))
              .arg(latest.seq)
              .arg(isoUtc(latest.atMs));
    return t;
}

} // namespace redrive::ui
