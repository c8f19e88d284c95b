// FlatMap: an ordered map kept as one sorted array of (key, value) pairs.
//
// For the small maps that are copied, cleared and refilled far more often than searched: the
// column metrics of a manifest entry hold a handful of keys, and planning decodes millions of
// them. The map is one pointer (8 bytes in its owner, so a data file's six metric maps cost 48
// bytes, not 144, when a plan drops them); the pointer is null until the first insert, and
// points at one heap block holding the size, the capacity and the pairs. clear() keeps the
// block, so refilling allocates nothing. Iteration is in key order like std::map.
//
// Invariant: keys are strictly ascending. Every member that inserts keeps it; the elements are
// std::pair<Key, Value> so `for (auto& [k, v] : m)` reads as with std::map, but a key must not
// be changed through an iterator. Iterators are pointers, invalidated by any insert or erase.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <new>
#include <stdexcept>
#include <tuple>
#include <utility>

namespace floe {

template <typename Key, typename Value>
class FlatMap {
 public:
  using key_type = Key;
  using mapped_type = Value;
  using value_type = std::pair<Key, Value>;
  using iterator = value_type*;
  using const_iterator = const value_type*;

  FlatMap() = default;
  // Like std::map's: a repeated key keeps its first value.
  FlatMap(std::initializer_list<value_type> items) {
    reserve(items.size());
    for (const value_type& item : items) emplace(item.first, item.second);
  }
  template <typename Map>  // from any map of (key, value) pairs in key order, e.g. std::map
    requires requires(const Map& m) { m.begin()->first; }
  static FlatMap From(const Map& m) {
    FlatMap out;
    out.reserve(m.size());
    for (const auto& [k, v] : m) out.emplace_hint(out.end(), k, v);
    return out;
  }
  FlatMap(const FlatMap& other) { *this = other; }
  FlatMap(FlatMap&& other) noexcept : block_(std::exchange(other.block_, nullptr)) {}
  FlatMap& operator=(const FlatMap& other) {
    if (this == &other) return *this;
    clear();
    reserve(other.size());
    std::uninitialized_copy(other.begin(), other.end(), Items());
    if (block_) block_->size = other.size32();
    return *this;
  }
  FlatMap& operator=(FlatMap&& other) noexcept {
    if (this != &other) {
      Release();
      block_ = std::exchange(other.block_, nullptr);
    }
    return *this;
  }
  ~FlatMap() { Release(); }

  iterator begin() { return Items(); }
  iterator end() { return Items() + size(); }
  const_iterator begin() const { return Items(); }
  const_iterator end() const { return Items() + size(); }
  size_t size() const { return block_ ? block_->size : 0; }
  bool empty() const { return size() == 0; }
  void clear() {  // keeps the capacity: refilling allocates nothing
    if (!block_) return;
    std::destroy(begin(), end());
    block_->size = 0;
  }
  void reserve(size_t n) {
    if (n > Capacity()) Reallocate(n);
  }

  iterator find(const Key& k) {
    iterator it = LowerBound(k);
    return it != end() && it->first == k ? it : end();
  }
  const_iterator find(const Key& k) const { return const_cast<FlatMap*>(this)->find(k); }
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
    iterator it = LowerBound(k);
    if (it != end() && it->first == k) return {it, false};
    return {InsertAt(static_cast<size_t>(it - begin()), k, std::forward<Args>(args)...), true};
  }
  // As emplace; cheap when keys arrive in ascending order and hint is end().
  template <typename... Args>
  iterator emplace_hint(const_iterator hint, const Key& k, Args&&... args) {
    if (hint == end() && (empty() || (end() - 1)->first < k)) {
      AppendUnordered(k, std::forward<Args>(args)...);
      return end() - 1;
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
    size_t n = size();
    if (n == Capacity()) Reallocate(Grown());
    ::new (static_cast<void*>(Items() + n))
        value_type(std::piecewise_construct, std::forward_as_tuple(k), std::forward_as_tuple(std::forward<Args>(args)...));
    block_->size = static_cast<uint32_t>(n + 1);
  }
  void RestoreOrder() {
    auto key_less = [](const value_type& a, const value_type& b) { return a.first < b.first; };
    auto key_not_less = [](const value_type& a, const value_type& b) { return !(a.first < b.first); };
    // Already strictly ascending (what every writer produces, and any map of one key, as a
    // filtered plan's maps mostly are): nothing to do.
    if (size() < 2 || std::adjacent_find(begin(), end(), key_not_less) == end()) return;
    std::stable_sort(begin(), end(), key_less);
    auto same_key = [](const value_type& a, const value_type& b) { return a.first == b.first; };
    ShrinkTo(std::unique(begin(), end(), same_key));
  }
  size_t erase(const Key& k) {
    iterator it = find(k);
    if (it == end()) return 0;
    ShrinkTo(std::move(it + 1, end(), it));
    return 1;
  }

  friend bool operator==(const FlatMap& a, const FlatMap& b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end());
  }

 private:
  // The heap block: this header, then `capacity` places of which the first `size` hold pairs.
  struct Block {
    uint32_t size;
    uint32_t capacity;
  };
  static constexpr size_t kItemsOffset = (sizeof(Block) + alignof(value_type) - 1) / alignof(value_type) * alignof(value_type);
  static_assert(alignof(value_type) <= __STDCPP_DEFAULT_NEW_ALIGNMENT__);

  value_type* Items() const {
    if (!block_) return nullptr;
    return std::launder(reinterpret_cast<value_type*>(reinterpret_cast<char*>(block_) + kItemsOffset));
  }
  size_t Capacity() const { return block_ ? block_->capacity : 0; }
  uint32_t size32() const { return static_cast<uint32_t>(size()); }
  // Capacity for one more pair: doubling, so n appends move each pair O(1) times on average.
  size_t Grown() const { return std::max<size_t>(4, 2 * Capacity()); }

  // Moves the pairs into a block of `capacity` places (>= size()).
  void Reallocate(size_t capacity) {
    if (capacity > UINT32_MAX) throw std::length_error("FlatMap: too many elements");
    size_t n = size();
    void* raw = ::operator new(kItemsOffset + capacity * sizeof(value_type));
    Block* fresh = ::new (raw) Block{static_cast<uint32_t>(n), static_cast<uint32_t>(capacity)};
    auto* items = reinterpret_cast<value_type*>(static_cast<char*>(raw) + kItemsOffset);
    if (block_) {
      std::uninitialized_move(begin(), end(), items);
      Release();
    }
    block_ = fresh;
  }
  void Release() {
    if (!block_) return;
    std::destroy(begin(), end());
    ::operator delete(static_cast<void*>(block_));
    block_ = nullptr;
  }
  // Destroys the pairs from new_end on.
  void ShrinkTo(iterator new_end) {
    std::destroy(new_end, end());
    if (block_) block_->size = static_cast<uint32_t>(new_end - begin());
  }
  template <typename... Args>
  iterator InsertAt(size_t pos, const Key& k, Args&&... args) {
    size_t n = size();
    if (pos == n) {
      AppendUnordered(k, std::forward<Args>(args)...);
      return begin() + pos;
    }
    // Built first, so a throwing constructor leaves the map as it was.
    value_type item(std::piecewise_construct, std::forward_as_tuple(k), std::forward_as_tuple(std::forward<Args>(args)...));
    if (n == Capacity()) Reallocate(Grown());
    value_type* items = Items();
    ::new (static_cast<void*>(items + n)) value_type(std::move(items[n - 1]));
    block_->size = static_cast<uint32_t>(n + 1);
    std::move_backward(items + pos, items + n - 1, items + n);
    items[pos] = std::move(item);
    return items + pos;
  }
  iterator LowerBound(const Key& k) {
    return std::lower_bound(begin(), end(), k, [](const value_type& item, const Key& key) { return item.first < key; });
  }

  Block* block_ = nullptr;
};

}  // namespace floe
