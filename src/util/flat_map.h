// FlatMap: an ordered map kept as one sorted vector of (key, value) pairs.
//
// For the small maps that are copied, cleared and refilled far more often than searched: the
// column metrics of a manifest entry hold a handful of keys, and planning decodes 100,000 of
// them. One allocation per map (none while empty, none on refill after clear(), which keeps the
// capacity), 24 bytes in its owner, and iteration in key order like std::map.
//
// Invariant: keys are strictly ascending. Every member that inserts keeps it; the elements are
// std::pair<Key, Value> so `for (auto& [k, v] : m)` reads as with std::map, but a key must not
// be changed through an iterator.
#pragma once

#include <algorithm>
#include <initializer_list>
#include <stdexcept>
#include <utility>
#include <vector>

namespace floe {

template <typename Key, typename Value>
class FlatMap {
 public:
  using key_type = Key;
  using mapped_type = Value;
  using value_type = std::pair<Key, Value>;
  using iterator = typename std::vector<value_type>::iterator;
  using const_iterator = typename std::vector<value_type>::const_iterator;

  FlatMap() = default;
  // Like std::map's: a repeated key keeps its first value.
  FlatMap(std::initializer_list<value_type> items) {
    items_.reserve(items.size());
    for (const value_type& item : items) emplace(item.first, item.second);
  }
  template <typename Map>  // from any map of (key, value) pairs in key order, e.g. std::map
    requires requires(const Map& m) { m.begin()->first; }
  static FlatMap From(const Map& m) {
    FlatMap out;
    out.items_.reserve(m.size());
    for (const auto& [k, v] : m) out.emplace_hint(out.end(), k, v);
    return out;
  }

  iterator begin() { return items_.begin(); }
  iterator end() { return items_.end(); }
  const_iterator begin() const { return items_.begin(); }
  const_iterator end() const { return items_.end(); }
  size_t size() const { return items_.size(); }
  bool empty() const { return items_.empty(); }
  void clear() { items_.clear(); }  // keeps the capacity: refilling allocates nothing
  void reserve(size_t n) { items_.reserve(n); }

  iterator find(const Key& k) {
    auto it = LowerBound(k);
    return it != items_.end() && it->first == k ? it : items_.end();
  }
  const_iterator find(const Key& k) const {
    auto it = LowerBound(k);
    return it != items_.end() && it->first == k ? it : items_.end();
  }
  size_t count(const Key& k) const { return find(k) == end() ? 0 : 1; }
  bool contains(const Key& k) const { return find(k) != end(); }
  const Value& at(const Key& k) const {
    auto it = find(k);
    if (it == end()) throw std::out_of_range("FlatMap::at: no such key");
    return it->second;
  }
  Value& at(const Key& k) { return const_cast<Value&>(std::as_const(*this).at(k)); }
  Value& operator[](const Key& k) { return emplace(k).first->second; }

  // Inserts (k, Value(args...)) unless k is present; returns where k is and whether it was added.
  template <typename... Args>
  std::pair<iterator, bool> emplace(const Key& k, Args&&... args) {
    auto it = LowerBound(k);
    if (it != items_.end() && it->first == k) return {it, false};
    return {items_.emplace(it, std::piecewise_construct, std::forward_as_tuple(k),
                           std::forward_as_tuple(std::forward<Args>(args)...)),
            true};
  }
  // As emplace; cheap when keys arrive in ascending order and hint is end().
  template <typename... Args>
  iterator emplace_hint(const_iterator hint, const Key& k, Args&&... args) {
    if (hint == items_.end() && (items_.empty() || items_.back().first < k)) {
      items_.emplace_back(std::piecewise_construct, std::forward_as_tuple(k), std::forward_as_tuple(std::forward<Args>(args)...));
      return items_.end() - 1;
    }
    return emplace(k, std::forward<Args>(args)...).first;
  }
  std::pair<iterator, bool> insert(const value_type& item) { return emplace(item.first, item.second); }

  // For decoders of input whose key order is not to be trusted (a manifest another engine
  // wrote): AppendUnordered adds at the end whatever the key, and RestoreOrder, which must be
  // called before any other member, sorts once and keeps the first of repeated keys, as
  // emplace would. n appends and one sort, so keys in descending order cost n log n, where n
  // emplaces in the middle would move n^2 / 2 elements.
  template <typename... Args>
  void AppendUnordered(const Key& k, Args&&... args) {
    items_.emplace_back(std::piecewise_construct, std::forward_as_tuple(k),
                        std::forward_as_tuple(std::forward<Args>(args)...));
  }
  void RestoreOrder() {
    auto key_less = [](const value_type& a, const value_type& b) { return a.first < b.first; };
    auto key_not_less = [](const value_type& a, const value_type& b) { return !(a.first < b.first); };
    // Already strictly ascending (what every writer produces): nothing to do.
    if (std::adjacent_find(items_.begin(), items_.end(), key_not_less) == items_.end()) return;
    std::stable_sort(items_.begin(), items_.end(), key_less);
    auto same_key = [](const value_type& a, const value_type& b) { return a.first == b.first; };
    items_.erase(std::unique(items_.begin(), items_.end(), same_key), items_.end());
  }
  size_t erase(const Key& k) {
    auto it = find(k);
    if (it == end()) return 0;
    items_.erase(it);
    return 1;
  }

  friend bool operator==(const FlatMap& a, const FlatMap& b) { return a.items_ == b.items_; }

 private:
  iterator LowerBound(const Key& k) {
    return std::lower_bound(items_.begin(), items_.end(), k, [](const value_type& item, const Key& key) { return item.first < key; });
  }
  const_iterator LowerBound(const Key& k) const {
    return std::lower_bound(items_.begin(), items_.end(), k, [](const value_type& item, const Key& key) { return item.first < key; });
  }

  std::vector<value_type> items_;
};

}  // namespace floe
