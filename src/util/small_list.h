// SmallList: a list of plain values (integers) that holds one value without a heap block.
//
// For a field that almost always has one value and is held per planned task: a data file's
// split offsets (one per row group; most files have one row group). std::vector<int64_t> is
// 24 bytes plus a heap block for even one value, allocated while decoding and freed with the
// plan, millions of times in a large plan. This is 16 bytes, and a single value lives in it.
//
// Invariant: capacity_ == 1 means the one slot `one_` is in use (size 0 or 1); capacity_ > 1
// means `heap_` points at capacity_ values, size_ of them set. Values are trivially copyable,
// so copying is memcpy and nothing needs destroying but the block.
//
// It reads like std::vector for what its users do (size, [], iteration, push_back, clear,
// comparison, assignment from a vector or a brace list) and converts to std::vector
// (ToVector) where one is needed.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <limits>
#include <stdexcept>
#include <type_traits>
#include <vector>

namespace floe {

template <typename T>
  requires std::is_trivially_copyable_v<T>
class SmallList {
 public:
  using value_type = T;
  using iterator = T*;
  using const_iterator = const T*;
  using size_type = size_t;

  SmallList() : one_() {}
  SmallList(std::initializer_list<T> items) : SmallList() { Assign(items.begin(), items.size()); }
  SmallList(const std::vector<T>& items) : SmallList() { Assign(items.data(), items.size()); }  // NOLINT
  SmallList(const SmallList& other) : SmallList() { Assign(other.data(), other.size()); }
  SmallList(SmallList&& other) noexcept : SmallList() { Steal(other); }
  SmallList& operator=(const SmallList& other) {
    if (this != &other) Assign(other.data(), other.size());
    return *this;
  }
  SmallList& operator=(SmallList&& other) noexcept {
    if (this != &other) {
      Release();
      Steal(other);
    }
    return *this;
  }
  SmallList& operator=(const std::vector<T>& items) {
    Assign(items.data(), items.size());
    return *this;
  }
  SmallList& operator=(std::initializer_list<T> items) {
    Assign(items.begin(), items.size());
    return *this;
  }
  ~SmallList() { Release(); }

  T* data() { return capacity_ > 1 ? heap_ : &one_; }
  const T* data() const { return capacity_ > 1 ? heap_ : &one_; }
  iterator begin() { return data(); }
  iterator end() { return data() + size_; }
  const_iterator begin() const { return data(); }
  const_iterator end() const { return data() + size_; }
  size_t size() const { return size_; }
  size_t capacity() const { return capacity_; }
  bool empty() const { return size_ == 0; }
  T& operator[](size_t i) { return data()[i]; }
  const T& operator[](size_t i) const { return data()[i]; }
  T& back() { return data()[size_ - 1]; }
  const T& back() const { return data()[size_ - 1]; }

  void clear() { size_ = 0; }  // keeps the capacity: refilling allocates nothing
  void reserve(size_t n) {
    if (n <= capacity_) return;
    if (n > std::numeric_limits<uint32_t>::max()) throw std::length_error("SmallList: too many values");
    T* block = new T[n];
    std::memcpy(block, data(), size_ * sizeof(T));
    if (capacity_ > 1) delete[] heap_;
    heap_ = block;
    capacity_ = static_cast<uint32_t>(n);
  }
  void push_back(T v) {
    if (size_ == capacity_) reserve(size_t{capacity_} * 2);
    data()[size_++] = v;
  }
  std::vector<T> ToVector() const { return std::vector<T>(begin(), end()); }

  friend bool operator==(const SmallList& a, const SmallList& b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end());
  }
  friend bool operator==(const SmallList& a, const std::vector<T>& b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end());
  }

 private:
  void Assign(const T* items, size_t n) {
    clear();
    reserve(n);
    if (n) std::memcpy(data(), items, n * sizeof(T));
    size_ = static_cast<uint32_t>(n);
  }
  void Steal(SmallList& other) {  // this holds nothing on the heap
    if (other.capacity_ > 1) {
      heap_ = other.heap_;
    } else {
      one_ = other.one_;
    }
    size_ = other.size_;
    capacity_ = other.capacity_;
    other.capacity_ = 1;
    other.size_ = 0;
  }
  void Release() {
    if (capacity_ > 1) delete[] heap_;
    capacity_ = 1;
    size_ = 0;
  }

  union {
    T one_;
    T* heap_;
  };
  uint32_t size_ = 0;
  uint32_t capacity_ = 1;
};

}  // namespace floe
