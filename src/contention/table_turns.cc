#include "contention/table_turns.h"

#include <algorithm>
#include <chrono>
#include <map>
#include <memory>
#include <vector>

#include "util/clock.h"

namespace floe {

uint64_t TurnQueue::Enter(Party party, int64_t now) {
  const uint64_t id = next_id_++;
  waiting_.push_back(Waiter{id, party, now, waiting_.empty() ? now : 0, std::nullopt});
  return id;
}

int64_t TurnQueue::TurnLimitUs() const {
  const int64_t scaled = std::min<int64_t>(turn_us_, limits_.max_turn_us) * limits_.turn_attempts;
  return std::clamp(scaled, limits_.min_turn_us, std::max(limits_.min_turn_us, limits_.max_turn_us));
}

TurnQueue::Grant TurnQueue::Admit(const Waiter& front, int64_t now) {
  if (holders_ > 0 && holder_ == front.party) {
    ++holders_;  // joins its party's turn
    return Grant{turn_, now};
  }
  // A new turn, for every waiter of the party.
  ++turn_;
  holder_ = front.party;
  holders_ = 1;
  for (Waiter& w : waiting_) {
    if (&w != &front && w.party == front.party && !w.granted) {
      ++holders_;
      w.granted = Grant{turn_, now};
    }
  }
  return Grant{turn_, now};
}

std::optional<TurnQueue::Grant> TurnQueue::Decide(const Waiter& w, bool front, int64_t now) {
  if (w.granted) return w.granted;
  const int64_t limit = TurnLimitUs();
  // Waited long enough: it goes beside the turns, as without them.
  if (now - w.enter_us >= limit * limits_.wait_turns) return Grant{0, now};
  if (!front) return std::nullopt;
  const bool free = holders_ == 0 || holder_ == w.party;
  // The attempts in the way have had a turn limit since this waiter reached the front: they
  // run on, but no longer hold the table.
  const bool overdue = now - w.front_us >= limit;
  if (!free && !overdue) return std::nullopt;
  return Admit(w, now);
}

std::optional<TurnQueue::Grant> TurnQueue::TryAdmit(uint64_t id, int64_t now) {
  auto it = std::find_if(waiting_.begin(), waiting_.end(), [id](const Waiter& w) { return w.id == id; });
  if (it == waiting_.end()) return std::nullopt;
  const bool front = it == waiting_.begin();
  std::optional<Grant> grant = Decide(*it, front, now);
  if (!grant) return std::nullopt;
  waiting_.erase(it);
  if (front && !waiting_.empty()) waiting_.front().front_us = now;
  return grant;
}

int64_t TurnQueue::WaitUntil(uint64_t id) const {
  auto it = std::find_if(waiting_.begin(), waiting_.end(), [id](const Waiter& w) { return w.id == id; });
  if (it == waiting_.end()) return 0;
  const int64_t limit = TurnLimitUs();
  const int64_t give_up = it->enter_us + limit * limits_.wait_turns;
  return it == waiting_.begin() ? std::min(give_up, it->front_us + limit) : give_up;
}

void TurnQueue::Leave(const Grant& grant, int64_t now, const std::string& landed_location) {
  if (!landed_location.empty()) {
    last_landed_us_ = std::max(last_landed_us_, now);
    last_landed_location_ = landed_location;
    const int64_t took = std::max<int64_t>(now - grant.start_us, 0);
    turn_us_ = turn_us_ == 0 ? took : (3 * turn_us_ + took) / 4;
  }
  // A turn taken over (or never held) ended for the queue already.
  if (grant.turn != 0 && grant.turn == turn_ && holders_ > 0) --holders_;
}

namespace {

// The tables whose turn this thread holds, so that a commit inside an attempt (a test's hook,
// a nested commit) does not wait for the attempt around it.
thread_local std::vector<const TableTurns*> held_turns;

bool HeldByThisThread(const TableTurns* turns) {
  return std::find(held_turns.begin(), held_turns.end(), turns) != held_turns.end();
}

}  // namespace

std::string TableTurns::KeyOf(const TableMetadata& metadata) {
  return metadata.table_uuid.empty() ? "location:" + metadata.location : "uuid:" + metadata.table_uuid;
}

TableTurns::TableTurns(TurnLimits limits, Now now)
    : now_(now ? std::move(now) : Now(MonotonicMicros)), queue_(limits) {}

TableTurns::Turn& TableTurns::Turn::operator=(Turn&& other) noexcept {
  if (this != &other) {
    End();
    turns_ = std::exchange(other.turns_, nullptr);
    grant_ = other.grant_;
    last_landed_us_ = other.last_landed_us_;
    last_landed_location_ = std::move(other.last_landed_location_);
    waited_us_ = other.waited_us_;
    nested_ = other.nested_;
  }
  return *this;
}

void TableTurns::Turn::End(const std::string& landed_location) {
  if (TableTurns* turns = std::exchange(turns_, nullptr)) turns->End(*this, landed_location);
}

TableTurns::Turn TableTurns::Take(TurnQueue::Party party) {
  Turn turn;
  std::unique_lock lock(mu_);
  turn.last_landed_us_ = queue_.last_landed_us();
  if (HeldByThisThread(this)) {
    turn.nested_ = true;
    return turn;
  }
  const int64_t entered = now_();
  const uint64_t id = queue_.Enter(party, entered);
  std::optional<TurnQueue::Grant> grant;
  while (!(grant = queue_.TryAdmit(id, now_()))) {
    const int64_t wait_us = std::max<int64_t>(queue_.WaitUntil(id) - now_(), 1);
    changed_.wait_for(lock, std::chrono::microseconds(wait_us));
  }
  // The next waiter may be of the same party, or at the front now: it looks again.
  changed_.notify_all();
  turn.grant_ = *grant;
  turn.turns_ = this;
  turn.waited_us_ = grant->start_us - entered;
  turn.last_landed_us_ = queue_.last_landed_us();
  turn.last_landed_location_ = queue_.last_landed_location();
  held_turns.push_back(this);
  return turn;
}

void TableTurns::End(Turn& turn, const std::string& landed_location) {
  {
    std::lock_guard lock(mu_);
    queue_.Leave(turn.grant_, now_(), landed_location);
  }
  if (auto it = std::find(held_turns.begin(), held_turns.end(), this); it != held_turns.end()) held_turns.erase(it);
  changed_.notify_all();
}

}  // namespace floe
